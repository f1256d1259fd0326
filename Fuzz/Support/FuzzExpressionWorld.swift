import Foundation
@testable import SkillbookCore

/// The names a fuzzed expression can use, typed and valued alike.
enum FuzzExpressionWorld {
    static let token = "s3cr3t-FUZZ"
    static let api = "Pr0v ided-K3y"
    static let secrets = [token, api]
    /// A run's redactor before evaluation (copied per input: making one costs the secrets' forms).
    static let redactor = Redactor(secrets: secrets)

    /// (`secret('api')` is not limited to declared names here: any name type-checks, and an unknown
    /// one fails at evaluation, whose message is checked like a value.)
    static let scope = ExpressionScope(
        inputs: [
            ObjectField(name: "name", type: .string), ObjectField(name: "count", type: .integer),
            ObjectField(name: "ratio", type: .number), ObjectField(name: "tags", type: .array(.string)),
            ObjectField(name: "token", type: .string), ObjectField(name: "maybe", type: .union([.integer, .null])),
        ],
        steps: [
            "list": .init(
                skill: "notes.list",
                output: .array(.object(fields: [ObjectField(name: "id", type: .string), ObjectField(name: "title", type: .string)])),
                visibility: .earlier),
            "flag": .init(skill: "debug.echo", output: .boolean, visibility: .earlier),
        ],
        env: ["HOME"])

    static let context: EvaluationContext = {
        var inputs = ValueObject()
        inputs["name"] = "Ada"
        inputs["count"] = .int(3)
        inputs["ratio"] = .double(0.5)
        inputs["tags"] = .array([.string("a"), .string("b,c"), .string("")])
        inputs["token"] = .string(token)
        inputs["maybe"] = .null
        var first = ValueObject()
        first["id"] = "n1"
        first["title"] = "First"
        var second = ValueObject()
        second["id"] = "n2"
        second["title"] = "Zweite Notiz é"
        var context = EvaluationContext(
            inputs: inputs, steps: ["list": .array([.object(first), .object(second)]), "flag": .bool(true)], env: ["HOME": "/home/ada"],
            now: Date(timeIntervalSince1970: 1_774_749_600), timeZone: TimeZone(identifier: "Europe/Berlin")!)
        context.secrets = ["api": api]
        context.stepLimit = 100_000
        return context
    }()

    /// What must not reach a recorder: each secret's forms, and every run of six of its characters
    /// in each case.
    static let needles: [[UInt8]] = {
        var texts: [String] = []
        for secret in secrets {
            texts += SecretForms.of(secret)
            for form in [secret, secret.uppercased(), secret.lowercased()] {
                let characters = Array(form)
                for start in 0...(characters.count - 6) { texts.append(String(characters[start..<start + 6])) }
            }
        }
        return Array(Set(texts)).map { Array($0.utf8) }
    }()

    /// Fails when a needle is in a text of `value`, byte by byte, and the template does not hold it
    /// (in any case) itself, as written or as JSON text writes it (a list interpolated into text
    /// shows a NUL the template wrote before "v ided" as `\u0000v ided`: "0v ide" is the template's).
    static func checkMasked(_ value: Value, template: String) {
        switch value {
        case .string(let text):
            let bytes = Array(text.utf8)
            let written = Array((template + "\n" + JSONText.encode(.string(template))).lowercased().utf8)
            for needle in needles where contains(bytes, needle) && !contains(written, Array(String(decoding: needle, as: UTF8.self).lowercased().utf8)) {
                fail("a secret reaches a recorder unmasked ('\(String(decoding: needle, as: UTF8.self))' in \(text.debugDescription)): \(template)")
            }
        case .array(let items): items.forEach { checkMasked($0, template: template) }
        case .object(let object):
            for (key, member) in object {
                checkMasked(.string(key), template: template)
                checkMasked(member, template: template)
            }
        case .int, .double, .bool, .null: break
        }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<start + needle.count]) == needle { return true }
        }
        return false
    }
}
