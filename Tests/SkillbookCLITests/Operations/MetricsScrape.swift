import Foundation
import SkillbookCore
import SkillbookTesting
import Testing

/// One scrape of a `--metrics` endpoint, parsed by the official Prometheus client's parser
/// (`scripts/scrape_metrics.py` run with the Python of `.build/venv`, which `make venv` fills).
struct MetricsScrape {
    struct Sample {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    var contentType: String
    /// Family name → its type.
    var types: [String: String]
    var samples: [Sample]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Scrapes `url`; fails the test (with the parser's message) when it does not parse.
    static func scrape(_ url: String) async throws -> MetricsScrape {
        let python = root.appendingPathComponent(".build/venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw ChildProcessError("\(python) is missing: run 'make venv' (or 'make test', which creates it with prometheus_client)")
        }
        let out = OutputFile()
        let err = OutputFile()
        let process = try ChildProgram(
            python, [root.appendingPathComponent("scripts/scrape_metrics.py").path, url], output: .file(out), error: .file(err))
        guard await process.exit(within: 60) != nil else {
            process.signal(SIGKILL)
            throw ChildProcessError("scrape_metrics.py \(url) did not finish in 60 s: \(err.text)")
        }
        guard process.termination == .exited(0), let object = try JSONSerialization.jsonObject(with: Data(out.text.utf8)) as? [String: Any],
            let families = object["families"] as? [[String: Any]]
        else {
            throw ChildProcessError("scrape_metrics.py \(url) \(process.termination.map { "\($0)" } ?? "did not end"): \(err.text)")
        }
        var types: [String: String] = [:]
        var samples: [Sample] = []
        for family in families {
            types[family["name"] as? String ?? ""] = family["type"] as? String
            for sample in family["samples"] as? [[String: Any]] ?? [] {
                samples.append(
                    Sample(
                        name: sample["name"] as? String ?? "", labels: sample["labels"] as? [String: String] ?? [:],
                        value: (sample["value"] as? NSNumber)?.doubleValue ?? .nan))
            }
        }
        return MetricsScrape(contentType: object["content_type"] as? String ?? "", types: types, samples: samples)
    }

    /// The value of the sample `name` whose labels include `labels` (nil when none is there).
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { sample in sample.name == name && labels.allSatisfy { key, value in sample.labels[key] == value } }?.value
    }
}

/// The URL a child logged with `metrics listening url=…` (text or JSON log).
func metricsURL(in log: String) -> String? {
    for line in log.split(separator: "\n") {
        guard let range = line.range(of: "url=http://") ?? line.range(of: "\"url\":\"http://") else { continue }
        let start = line.index(range.upperBound, offsetBy: -"http://".count)
        let url = line[start...].prefix { $0 != " " && $0 != "\"" && $0 != "," && $0 != "}" }
        return String(url)
    }
    return nil
}
