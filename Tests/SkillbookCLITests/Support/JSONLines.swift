import SkillbookCore
import Foundation
import Testing

/// A JSON object as Foundation reads it.
typealias JSONObject = [String: Any]

/// Parses text that must be exactly one JSON value.
func parseJSON(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Any {
    do {
        return try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    } catch {
        Issue.record("not JSON: \(error)\n\(text)", sourceLocation: sourceLocation)
        throw error
    }
}

/// Parses `--json` output: every line must be a JSON object with a string `type`.
func jsonLines(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [JSONObject] {
    try text.split(separator: "\n").map { line in
        let object = try #require(
            try parseJSON(String(line), sourceLocation: sourceLocation) as? JSONObject, "not a JSON object: \(line)",
            sourceLocation: sourceLocation)
        #expect(object["type"] is String, "no type in \(line)", sourceLocation: sourceLocation)
        return object
    }
}

extension Dictionary where Key == String, Value == Any {
    var type: String? { self["type"] as? String }

    func object(_ key: String) -> JSONObject? { self[key] as? JSONObject }

    func objects(_ key: String) -> [JSONObject]? { self[key] as? [JSONObject] }

    /// `step id → status` of a `run.finished` event.
    var stepStatuses: [String: String] {
        Dictionary<String, String>(
            uniqueKeysWithValues: (objects("steps") ?? []).compactMap { step in
                guard let id = step["id"] as? String, let status = step["status"] as? String else { return nil }
                return (id, status)
            })
    }
}
