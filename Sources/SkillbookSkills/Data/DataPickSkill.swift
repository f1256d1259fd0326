import SkillbookCore

/// `data.pick`: each object of a list cut down to some of its fields.
struct DataPickSkill: Skill {
    let descriptor = SkillDescriptor(
        id: "data.pick",
        title: "Pick fields from a list of objects",
        summary: "Keeps only the given fields of each object in a list and returns { items }. A field may be a "
            + "dotted path (owner.login): the result keeps the nesting ({ owner: { login } }), so later steps "
            + "read it by the same path. Fields come in the order given; a field an object does not have is "
            + "left out of that object.",
        examples: [
            "keep only the name and size", "pick the title and url of each item", "just the paths please",
            "drop every field except id", "只保留名称和大小字段",
        ],
        tags: ["data", "list", "fields"],
        kind: .query,
        parameters: .object(
            [
                "items": .array(.freeObject("An object."), "The objects to pick fields from."),
                "fields": .array(
                    .string(
                        "A field name, or names joined by dots for a nested field (owner.login).",
                        minLength: 1, pattern: FieldPath.pattern),
                    "The fields to keep, in the order they should appear.",
                    minItems: 1),
            ],
            required: ["items", "fields"]),
        output: .object(
            ["items": .array(.freeObject("An object with only the picked fields."), "The objects, in the same order.")],
            required: ["items"]),
        timeout: 30,
        idempotent: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let items = parameters["items"]?.arrayValue ?? []
        var paths: [FieldPath] = []
        for (index, field) in (parameters["fields"]?.arrayValue ?? []).enumerated() {
            guard let text = field.stringValue else {
                throw SkillError("fields[\(index)] must be a field name (text), got \(field.typeName)")
            }
            paths.append(try FieldPath.parse(text, parameter: "fields[\(index)]"))
        }
        guard !paths.isEmpty else { throw SkillError("data.pick needs at least one field in fields") }
        try Task.checkCancellation()
        return ["items": .array(items.map { Self.pick(paths, from: $0) })]
    }

    /// An object with the value at each path that `item` has, nested as in `item`. A later path
    /// inside a field already picked whole changes nothing; a whole field picked after some of its
    /// inner fields replaces them.
    static func pick(_ paths: [FieldPath], from item: Value) -> Value {
        var result = ValueObject()
        for path in paths {
            guard let value = path.lookup(in: item) else { continue }
            set(value, at: path.names[...], in: &result)
        }
        return .object(result)
    }

    private static func set(_ value: Value, at names: ArraySlice<String>, in object: inout ValueObject) {
        guard let name = names.first else { return }
        let rest = names.dropFirst()
        if rest.isEmpty {
            object[name] = value
            return
        }
        var inner = object[name]?.objectValue ?? ValueObject()
        set(value, at: rest, in: &inner)
        object[name] = .object(inner)
    }
}
