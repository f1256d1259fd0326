import SkillbookCore

/// `data.filter`: the objects of a list whose fields satisfy simple predicates.
struct DataFilterSkill: Skill {
    let descriptor = SkillDescriptor(
        id: "data.filter",
        title: "Filter a list of objects",
        summary: "Keeps the objects of a list whose fields satisfy every predicate in where (or any, with "
            + "match: any) and returns { items, count } in the original order. A predicate is "
            + "{ field, op, value }: field is a name or a dotted path (owner.login); op is one of == != < <= > >= "
            + "contains starts_with ends_with exists (default ==). Example: where: [{ field: size, op: '>', "
            + "value: 1000 }, { field: path, op: ends_with, value: .pdf }]. Values of different types never "
            + "match (except with !=), and a missing field matches only == null, != and exists: false.",
        examples: [
            "filter the list", "keep only the files bigger than 1 MB", "only the items where status is open",
            "select the entries that contain invoice", "过滤这个列表", "筛选出状态为打开的条目",
        ],
        tags: ["data", "list", "filter"],
        kind: .query,
        parameters: .object(
            [
                "items": .array(.freeObject("An object."), "The objects to filter."),
                "where": .array(
                    .object(
                        [
                            "field": .string(
                                "The field to test: a name, or names joined by dots for a nested field (owner.login).",
                                minLength: 1, pattern: FieldPath.pattern),
                            "op": .string(
                                "How to test it. == and != compare equal values (numbers by value: 2 == 2.0; "
                                    + "null matches a missing field). < <= > >= compare two numbers or two texts "
                                    + "(ISO dates compare correctly as text). contains: a text contains the value "
                                    + "as a part, or a list has an element equal to it. starts_with, ends_with: "
                                    + "texts. exists: the field is present and not null (value true, the default) "
                                    + "or absent or null (value false).",
                                enum: DataPredicate.Op.allCases.map(\.rawValue), default: "=="),
                            "value": .anyValue(
                                "What to compare the field with; for exists, true (the default) or false."),
                            "ignore_case": .boolean(
                                "Compare texts without regard to letter case (for == != < <= > >= contains "
                                    + "starts_with ends_with).",
                                default: false),
                        ],
                        required: ["field"],
                        "A predicate on one field."),
                    "The predicates, such as [{ field: size, op: '>', value: 1000 }]. A single predicate may be "
                        + "given without the list.",
                    minItems: 1),
                "match": .string(
                    "all: keep objects that satisfy every predicate; any: keep those that satisfy at least one.",
                    enum: ["all", "any"], default: "all"),
            ],
            required: ["items", "where"]),
        output: .object(
            [
                "items": .array(.freeObject("An object."), "The objects that match, in their original order."),
                "count": .integer("How many objects are in items.", minimum: 0),
            ],
            required: ["items", "count"]),
        timeout: 30,
        idempotent: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let parameters = parameters.applyingDefaults(of: descriptor.parameters)
        let items = parameters["items"]?.arrayValue ?? []
        var predicates: [DataPredicate] = []
        switch parameters["where"] {
        case .array(let list)?:
            for (index, value) in list.enumerated() {
                predicates.append(try DataPredicate(value, at: "where[\(index)]"))
            }
        case let single?:
            predicates = [try DataPredicate(single, at: "where")]
        case nil:
            break
        }
        guard !predicates.isEmpty else {
            throw SkillError("data.filter needs at least one predicate in where, like { field: size, op: '>', value: 1000 }")
        }
        let any = parameters["match"]?.stringValue == "any"
        var kept: [Value] = []
        for (index, item) in items.enumerated() {
            if index % 1024 == 1023 { try Task.checkCancellation() }
            let matches = any ? predicates.contains { $0.matches(item) } : predicates.allSatisfy { $0.matches(item) }
            if matches { kept.append(item) }
        }
        return ["items": .array(kept), "count": .int(kept.count)]
    }
}

/// One `{ field, op, value, ignore_case }` of `data.filter`.
struct DataPredicate: Sendable {
    enum Op: String, CaseIterable, Sendable {
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case contains
        case startsWith = "starts_with"
        case endsWith = "ends_with"
        case exists
    }

    let field: FieldPath
    let op: Op
    let value: Value
    let ignoreCase: Bool

    init(field: FieldPath, op: Op, value: Value, ignoreCase: Bool = false) {
        self.field = field
        self.op = op
        self.value = value
        self.ignoreCase = ignoreCase
    }

    /// Reads a predicate, with errors that say where (`where[1]`) and how to write it.
    init(_ predicate: Value, at place: String) throws(SkillError) {
        guard case .object(let object) = predicate else {
            throw SkillError(
                "\(place) must be a predicate like { field: size, op: '>', value: 1000 }, got \(predicate.typeName)")
        }
        let known: Set = ["field", "op", "value", "ignore_case"]
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw SkillError("\(place) has unknown key '\(unknown)'; a predicate has field, op, value and ignore_case")
        }
        guard let fieldText = object["field"]?.stringValue else {
            throw SkillError("\(place) needs a field (a text such as size or owner.login)")
        }
        field = try FieldPath.parse(fieldText, parameter: "\(place).field")
        let opValue = object["op"] ?? .string("==")
        guard let opText = opValue.stringValue, let op = Op(rawValue: opText.lowercased()) else {
            throw SkillError(
                "\(place).op '\(opValue.interpolatedText)' is not an operator; use one of "
                    + Op.allCases.map(\.rawValue).joined(separator: " "))
        }
        self.op = op
        switch (op, object["value"]) {
        case (.exists, nil):
            value = .bool(true)
        case (.exists, .bool(let wanted)?):
            value = .bool(wanted)
        case (.exists, let other?):
            throw SkillError("\(place): exists takes value true or false, got \(other.typeName)")
        case (_, nil):
            throw SkillError("\(place): \(op.rawValue) needs a value to compare \(fieldText) with")
        case (_, let given?):
            value = given
        }
        switch object["ignore_case"] {
        case nil, .null?: ignoreCase = false
        case .bool(let flag)?: ignoreCase = flag
        case let other?: throw SkillError("\(place).ignore_case must be true or false, got \(other.typeName)")
        }
    }

    /// Whether `item` satisfies the predicate. Never fails: a missing field or a value of another
    /// type simply does not match (`!=` is the negation of `==`).
    func matches(_ item: Value) -> Bool {
        let actual = field.lookup(in: item)
        switch op {
        case .exists:
            let present = actual != nil && actual != .null
            return present == (value.boolValue ?? true)
        case .equal:
            return equal(actual ?? .null, value)
        case .notEqual:
            return !equal(actual ?? .null, value)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let actual, let order = ordered(actual, value) else { return false }
            switch op {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        case .contains:
            switch actual {
            case .string(let text)?:
                guard case .string(let part) = value else { return false }
                return part.isEmpty || folded(text).contains(folded(part))
            case .array(let elements)?:
                return elements.contains { equal($0, value) }
            default:
                return false
            }
        case .startsWith, .endsWith:
            guard case .string(let text)? = actual, case .string(let part) = value else { return false }
            return op == .startsWith ? folded(text).hasPrefix(folded(part)) : folded(text).hasSuffix(folded(part))
        }
    }

    /// Equal as data: numbers by value, texts (folded when ignoring case), lists and objects member
    /// by member; values of different types are never equal.
    private func equal(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.int, .int), (.int, .double), (.double, .int), (.double, .double):
            return ValueOrder.compareNumbers(a, b) == 0 && !(a.doubleValue?.isNaN ?? false)
        case (.string(let x), .string(let y)):
            return folded(x) == folded(y)
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, member in y[key].map { equal(member, $0) } ?? false }
        default:
            return a == b
        }
    }

    /// -1, 0 or 1 for two numbers or two texts; `nil` for anything else (and for NaN).
    private func ordered(_ a: Value, _ b: Value) -> Int? {
        switch (a, b) {
        case (.string(let x), .string(let y)):
            return ValueOrder.compare(.string(folded(x)), .string(folded(y)))
        case (.int, .int), (.int, .double), (.double, .int), (.double, .double):
            if a.doubleValue?.isNaN == true || b.doubleValue?.isNaN == true { return nil }
            return ValueOrder.compareNumbers(a, b)
        default:
            return nil
        }
    }

    private func folded(_ text: String) -> String {
        ignoreCase ? text.lowercased() : text
    }
}
