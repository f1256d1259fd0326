import Foundation
import SkillbookHost
import Testing

@Suite struct MetricsRegistryTests {
    static let requests = MetricsRegistry.Family("t_requests_total", .counter, help: "Requests.", labels: ["path"])
    static let latency = MetricsRegistry.Family("t_latency_seconds", .histogram, help: "Latency\\ with\nlines.", buckets: [0.1, 1])
    static let depth = MetricsRegistry.Family("t_depth", .gauge, help: "Depth.")

    @Test func writesHelpTypeAndSamplesInTheTextFormat() async {
        let registry = MetricsRegistry()
        registry.add(Self.requests, ["/b"])
        registry.add(Self.requests, ["/a \"quoted\"\\\n"], 2)
        registry.observe(Self.latency, [], 0.05)
        registry.observe(Self.latency, [], 0.5)
        registry.observe(Self.latency, [], 7.25)
        registry.gauge(Self.depth) { [([], 4)] }
        #expect(
            await registry.exposition() == """
                # HELP t_requests_total Requests.
                # TYPE t_requests_total counter
                t_requests_total{path="/a \\"quoted\\"\\\\\\n"} 2
                t_requests_total{path="/b"} 1
                # HELP t_latency_seconds Latency\\\\ with\\nlines.
                # TYPE t_latency_seconds histogram
                t_latency_seconds_bucket{le="0.1"} 1
                t_latency_seconds_bucket{le="1"} 2
                t_latency_seconds_bucket{le="+Inf"} 3
                t_latency_seconds_sum 7.8
                t_latency_seconds_count 3
                # HELP t_depth Depth.
                # TYPE t_depth gauge
                t_depth 4

                """)
    }

    @Test func aDeclaredFamilyWithoutSamplesHasOnlyItsHeader() async {
        let registry = MetricsRegistry()
        registry.declare(Self.requests)
        registry.declare(Self.requests)
        #expect(await registry.exposition() == "# HELP t_requests_total Requests.\n# TYPE t_requests_total counter\n")
    }

    @Test func countsFromManyTasksAddUp() async {
        let registry = MetricsRegistry()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { for _ in 0..<1000 { registry.add(Self.requests, ["/x"]) } } }
        }
        #expect(await registry.exposition().contains("t_requests_total{path=\"/x\"} 8000\n"))
    }
}
