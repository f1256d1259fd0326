/// One way a value breaks its schema, at a path inside the value.
public struct SchemaViolation: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        case typeMismatch(expected: String, got: String)
        case missingRequired(String)
        case unknownProperty(String, suggestion: String?)
        /// Any other constraint; the text reads after the path ("must be at least 1, got 0").
        case constraint(String)
    }

    public var path: [PathComponent]
    public var kind: Kind

    public init(path: [PathComponent], kind: Kind) {
        self.path = path
        self.kind = kind
    }

    /// The phrase that follows the subject: `expects string, got integer`.
    public var predicate: String {
        switch kind {
        case .typeMismatch(let expected, let got): "expects \(expected), got \(got)"
        case .missingRequired(let name): "is missing required property '\(name)'"
        case .unknownProperty(let name, let suggestion):
            "has unknown property '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        case .constraint(let text): text
        }
    }

    public var description: String {
        let subject = path.isEmpty ? "value" : path.rendered()
        return "\(subject) \(predicate)"
    }
}

/// Checks values against schemas, reporting every problem.
public enum SchemaValidator {
    public static func validate(
        _ value: Value, against schema: Schema, path: [PathComponent] = []
    ) -> [SchemaViolation] {
        var violations: [SchemaViolation] = []
        check(value, schema, path, &violations)
        return violations
    }

    /// Whether a value of JSON type `got` fits where `expected` is declared (integers are numbers).
    public static func accepts(_ expected: Schema.JSONType, valueType got: String) -> Bool {
        got == expected.rawValue || (expected == .number && got == "integer")
    }

    private static func check(
        _ value: Value, _ schema: Schema, _ path: [PathComponent], _ out: inout [SchemaViolation]
    ) {
        func fail(_ text: String) { out.append(SchemaViolation(path: path, kind: .constraint(text))) }
        func shown(_ v: Value) -> String { schema.secret ? "***" : describe(v) }

        if let type = schema.type {
            let fits: Bool =
                switch (type, value) {
                case (.integer, .double(let d)): d.isFinite && d.rounded() == d
                default: accepts(type, valueType: value.typeName)
                }
            guard fits else {
                out.append(SchemaViolation(path: path, kind: .typeMismatch(expected: type.rawValue, got: value.typeName)))
                return
            }
        }
        if let allowed = schema.enumValues, !allowed.contains(where: { equalAsData($0, value) }) {
            fail("must be one of \(allowed.map(describe).joined(separator: ", ")); got \(shown(value))")
        }
        switch value {
        case .int, .double:
            let number = value.doubleValue!
            if let minimum = schema.minimum, number < minimum {
                fail("must be at least \(JSONText.number(minimum)), got \(shown(value))")
            }
            if let maximum = schema.maximum, number > maximum {
                fail("must be at most \(JSONText.number(maximum)), got \(shown(value))")
            }
        case .string(let text):
            let length = text.count
            if let minLength = schema.minLength, length < minLength {
                fail(
                    minLength == 1
                        ? "must not be empty"
                        : "must be at least \(minLength) characters long, got \(length)")
            }
            if let maxLength = schema.maxLength, length > maxLength {
                fail("must be at most \(maxLength) characters long, got \(length)")
            }
            if let pattern = schema.pattern {
                if let regex = try? Regex(pattern) {
                    if (try? regex.firstMatch(in: text)) == nil {
                        fail("must match the pattern '\(pattern)'")
                    }
                } else {
                    fail("has an invalid pattern '\(pattern)' in its schema")
                }
            }
            if let format = schema.format, let problem = FormatCheck.problem(text, format: format, secret: schema.secret) {
                fail(problem)
            }
        case .array(let items):
            if let minItems = schema.minItems, items.count < minItems {
                fail("must have at least \(minItems) item\(minItems == 1 ? "" : "s"), got \(items.count)")
            }
            if let maxItems = schema.maxItems, items.count > maxItems {
                fail("must have at most \(maxItems) items, got \(items.count)")
            }
            if let itemSchema = schema.items {
                for (index, item) in items.enumerated() {
                    check(item, itemSchema, path + [.index(index)], &out)
                }
            }
        case .object(let object):
            for name in schema.required where object[name] == nil || object[name] == .null {
                out.append(SchemaViolation(path: path, kind: .missingRequired(name)))
            }
            for (key, member) in object {
                if member == .null, schema.required.contains(key) { continue }  // reported as missing above
                if let propertySchema = schema.property(key) {
                    check(member, propertySchema, path + [.key(key)], &out)
                } else if schema.additionalProperties == false {
                    let suggestion = Suggestion.closest(to: key, in: schema.properties.map(\.name))
                    out.append(SchemaViolation(path: path, kind: .unknownProperty(key, suggestion: suggestion)))
                }
            }
        case .null, .bool:
            break
        }
    }

    /// Equality where 1 and 1.0 are the same number.
    static func equalAsData(_ a: Value, _ b: Value) -> Bool {
        if let x = a.doubleValue, let y = b.doubleValue { return x == y }
        return a == b
    }

    /// A value as it appears in a message: strings quoted, long text shortened.
    public static func describe(_ value: Value) -> String {
        let text: String =
            switch value {
            case .string(let s): "'\(s)'"
            default: JSONText.encode(value)
            }
        return text.count > 60 ? String(text.prefix(57)) + "..." : text
    }
}
