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

/// Checks values against schemas (JSON Schema 2020-12 semantics for the supported keywords),
/// reporting every problem. Nothing is coerced here: see `Coercion` for command-line and model values.
public enum SchemaValidator {
    public static func validate(
        _ value: Value, against schema: Schema, path: [PathComponent] = []
    ) -> [SchemaViolation] {
        var violations: [SchemaViolation] = []
        check(value, schema, path, &violations)
        return violations
    }

    /// Whether `value` breaks nothing in `schema`.
    public static func isValid(_ value: Value, against schema: Schema) -> Bool {
        validate(value, against: schema).isEmpty
    }

    /// Whether a value of JSON type `got` fits where `expected` is declared (integers are numbers).
    public static func accepts(_ expected: Schema.JSONType, valueType got: String) -> Bool {
        got == expected.rawValue || (expected == .number && got == "integer")
    }

    /// Whether `value` is of JSON type `type`; a number with no fractional part is an integer.
    public static func fits(_ value: Value, _ type: Schema.JSONType) -> Bool {
        if type == .integer, case .double(let d) = value { return d.isFinite && d.rounded() == d }
        return accepts(type, valueType: value.typeName)
    }

    static func check(_ value: Value, _ schema: Schema, _ path: [PathComponent], _ out: inout [SchemaViolation]) {
        let fields = schema.fields
        func fail(_ text: String) { out.append(SchemaViolation(path: path, kind: .constraint(text))) }
        func shown(_ v: Value) -> String { fields.secret ? "***" : describe(v) }

        if let boolean = fields.boolean {
            if !boolean { fail("is not allowed here (its schema is false)") }
            return
        }
        if let target = fields.refTarget { check(value, target, path, &out) }
        if let types = fields.types, !types.contains(where: { fits(value, $0) }) {
            let expected = types.isEmpty ? "nothing" : types.map(\.rawValue).joined(separator: " or ")
            out.append(SchemaViolation(path: path, kind: .typeMismatch(expected: expected, got: value.typeName)))
            return
        }
        if let constant = fields.constValue, !equalAsData(constant, value) {
            fail("must be \(describe(constant)); got \(shown(value))")
        }
        if let allowed = fields.enumValues, !allowed.contains(where: { equalAsData($0, value) }) {
            fail(
                allowed.isEmpty
                    ? "cannot have any value (its 'enum' is empty)"
                    : "must be one of \(allowed.map(describe).joined(separator: ", ")); got \(shown(value))")
        }
        switch value {
        case .int, .double:
            let number = value.doubleValue!
            if let minimum = fields.minimum, number < minimum {
                fail("must be at least \(JSONText.number(minimum)), got \(shown(value))")
            }
            if let maximum = fields.maximum, number > maximum {
                fail("must be at most \(JSONText.number(maximum)), got \(shown(value))")
            }
        case .string(let text):
            checkString(text, fields, fail)
        case .array(let items):
            checkArray(items, fields, path, &out)
        case .object(let object):
            checkObject(object, fields, path, &out)
        case .null, .bool:
            break
        }
        checkCombinations(value, fields, path, &out)
    }

    /// Lengths in Unicode code points; `pattern` searches the same text, scalar by scalar.
    private static func checkString(_ text: String, _ fields: SchemaFields, _ fail: (String) -> Void) {
        // Counted only when a bound asks, over the UTF-8 bytes (every byte but a continuation byte
        // starts a code point): a large text costs one quick pass, or none.
        if fields.minLength != nil || fields.maxLength != nil {
            let length = text.utf8.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
            if let minLength = fields.minLength, length < minLength {
                fail(minLength == 1 ? "must not be empty" : "must be at least \(minLength) characters long, got \(length)")
            }
            if let maxLength = fields.maxLength, length > maxLength {
                fail("must be at most \(maxLength) characters long, got \(length)")
            }
        }
        if let pattern = fields.pattern, !matches(text, pattern) {
            fail(SchemaPatterns.regex(pattern) == nil ? "has an invalid pattern '\(pattern)' in its schema" : "must match the pattern '\(pattern)'")
        }
        if let format = fields.format, let problem = FormatCheck.problem(text, format: format, secret: fields.secret) {
            fail(problem)
        }
    }

    /// Whether `pattern` (an ECMA-262-style regular expression, unanchored) occurs in `text`.
    static func matches(_ text: String, _ pattern: String) -> Bool {
        guard let regex = SchemaPatterns.regex(pattern) else { return false }
        return (try? regex.firstMatch(in: text)) != nil
    }

    private static func checkArray(
        _ items: [Value], _ fields: SchemaFields, _ path: [PathComponent], _ out: inout [SchemaViolation]
    ) {
        func fail(_ text: String) { out.append(SchemaViolation(path: path, kind: .constraint(text))) }
        if let minItems = fields.minItems, items.count < minItems {
            fail("must have at least \(minItems) item\(minItems == 1 ? "" : "s"), got \(items.count)")
        }
        if let maxItems = fields.maxItems, items.count > maxItems {
            fail("must have at most \(maxItems) items, got \(items.count)")
        }
        let prefix = fields.prefixItems ?? []
        for (index, item) in items.enumerated() {
            if index < prefix.count {
                check(item, prefix[index], path + [.index(index)], &out)
            } else if let itemSchema = fields.items {
                check(item, itemSchema, path + [.index(index)], &out)
            }
        }
    }

    private static func checkObject(
        _ object: ValueObject, _ fields: SchemaFields, _ path: [PathComponent], _ out: inout [SchemaViolation]
    ) {
        for name in fields.required where object[name] == nil {
            out.append(SchemaViolation(path: path, kind: .missingRequired(name)))
        }
        for (name, needed) in fields.dependentRequired where object[name] != nil {
            for other in needed where object[other] == nil {
                out.append(SchemaViolation(path: path, kind: .constraint("has '\(name)', so it must also have '\(other)'")))
            }
        }
        for (key, member) in object {
            if let names = fields.propertyNames {
                for violation in validate(.string(key), against: names) {
                    out.append(SchemaViolation(path: path, kind: .constraint("has a property name '\(key)' that \(violation.predicate)")))
                }
            }
            var matched = false
            if let declared = fields.properties.first(where: { $0.name == key }) {
                matched = true
                check(member, declared.schema, path + [.key(key)], &out)
            }
            for (pattern, schema) in fields.patternProperties where matches(key, pattern) {
                matched = true
                check(member, schema, path + [.key(key)], &out)
            }
            guard !matched else { continue }
            if let additional = fields.additionalSchema {
                check(member, additional, path + [.key(key)], &out)
            } else if fields.additionalProperties == false {
                let suggestion = Suggestion.closest(to: key, in: fields.properties.map(\.name))
                out.append(SchemaViolation(path: path, kind: .unknownProperty(key, suggestion: suggestion)))
            }
        }
    }

    /// `allOf`, `anyOf`, `oneOf`, `not`.
    private static func checkCombinations(
        _ value: Value, _ fields: SchemaFields, _ path: [PathComponent], _ out: inout [SchemaViolation]
    ) {
        for schema in fields.allOf ?? [] { check(value, schema, path, &out) }
        // Alternatives that only say which properties an object has get a sentence about the names.
        let given: Set<String>? = if case .object(let object) = value { Set(object.keys) } else { nil }
        func namesOnly(_ schemas: [Schema]) -> Bool { given != nil && schemas.allSatisfy { $0.requiredNamesOnly != nil } }
        func add(_ problem: String?) { if let problem { out.append(SchemaViolation(path: path, kind: .constraint(problem))) } }
        if let alternatives = fields.anyOf, namesOnly(alternatives) {
            add(Schema.alternativesProblem("anyOf", alternatives, given: given ?? []))
        } else if let alternatives = fields.anyOf {
            let results = alternatives.map { validate(value, against: $0, path: path) }
            if !results.contains(where: \.isEmpty) { out += noneMatched(results, "anyOf", value, path) }
        }
        if let alternatives = fields.oneOf, namesOnly(alternatives) {
            add(Schema.alternativesProblem("oneOf", alternatives, given: given ?? []))
        } else if let alternatives = fields.oneOf {
            let results = alternatives.map { validate(value, against: $0, path: path) }
            let matching = results.indices.filter { results[$0].isEmpty }
            if matching.isEmpty {
                out += noneMatched(results, "oneOf", value, path)
            } else if matching.count > 1 {
                let which = matching.map { String($0 + 1) }.joined(separator: " and ")
                out.append(SchemaViolation(path: path, kind: .constraint("matches more than one 'oneOf' alternative (\(which))")))
            }
        }
        if let excluded = fields.not, namesOnly([excluded]) {
            add(Schema.exclusionProblem(excluded, given: given ?? []))
        } else if let excluded = fields.not, validate(value, against: excluded).isEmpty {
            out.append(SchemaViolation(path: path, kind: .constraint("must not match the schema under 'not'")))
        }
    }

    /// One violation for alternatives that all failed: a plain type mismatch when each failed on
    /// its type alone (`expects integer or null, got string`), else each alternative's first problem.
    private static func noneMatched(
        _ results: [[SchemaViolation]], _ keyword: String, _ value: Value, _ path: [PathComponent]
    ) -> [SchemaViolation] {
        var expected: [String] = []
        for result in results {
            guard result.count == 1, result[0].path == path, case .typeMismatch(let type, _) = result[0].kind else {
                expected = []
                break
            }
            expected.append(type)
        }
        if !expected.isEmpty {
            return [SchemaViolation(path: path, kind: .typeMismatch(expected: expected.joined(separator: " or "), got: value.typeName))]
        }
        let reasons = results.enumerated().map { index, result in
            let first = result[0]
            let inner = Array(first.path.dropFirst(path.count))
            return "\(index + 1)) " + (inner.isEmpty ? "" : inner.rendered() + " ") + first.predicate
        }
        return [SchemaViolation(path: path, kind: .constraint("matches none of the '\(keyword)' alternatives: \(reasons.joined(separator: "; "))"))]
    }

    /// JSON equality: numbers compare mathematically (1 == 1.0) at any depth, strings by code
    /// point (`"\u{E9}"` is not `"e\u{301}"`); object member order does not matter.
    public static func equalAsData(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): return x.unicodeScalars.elementsEqual(y.unicodeScalars)
        case (.int(let x), .int(let y)): return x == y
        case (.int, .double), (.double, .int), (.double, .double): return a.doubleValue! == b.doubleValue!
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(equalAsData)
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, member in y[key].map { equalAsData(member, $0) } ?? false }
        default: return a == b
        }
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
