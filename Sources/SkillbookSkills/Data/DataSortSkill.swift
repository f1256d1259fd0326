import SkillbookCore

/// `data.sort`: a list in order of a field (or of the items themselves), stably.
struct DataSortSkill: Skill {
    let descriptor = SkillDescriptor(
        id: "data.sort",
        title: "Sort a list",
        summary: "Sorts a list of objects by a field (a name or a dotted path such as owner.login), or a list "
            + "of plain values by themselves, ascending or descending, and returns { items }. The sort is "
            + "stable: items that compare equal keep their order. Values of different types are ordered "
            + "missing or null < false < true < numbers < texts < lists < objects (reversed for desc); texts "
            + "compare by character codes, so capitals come before small letters.",
        examples: [
            "sort the list by size", "order the files by date, newest first",
            "sort these names alphabetically", "sort the items by priority descending", "按大小排序", "把列表按日期排序",
        ],
        tags: ["data", "list", "sort"],
        kind: .query,
        parameters: .object(
            [
                "items": .array(.anyValue("An object, or a plain value."), "The items to sort."),
                "by": .string(
                    "The field to sort objects by: a name, or names joined by dots for a nested field (owner.login). "
                        + "Leave it out to sort the items by themselves.",
                    minLength: 1, pattern: FieldPath.pattern),
                "order": .string("asc: smallest first; desc: largest first.", enum: ["asc", "desc"], default: "asc"),
            ],
            required: ["items"]),
        output: .object(
            ["items": .array(.anyValue("An item."), "The same items, sorted.")],
            required: ["items"]),
        timeout: 30,
        idempotent: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let parameters = parameters.applyingDefaults(of: descriptor.parameters)
        let items = parameters["items"]?.arrayValue ?? []
        let path = try parameters["by"]?.stringValue.map { (text) throws(SkillError) in
            try FieldPath.parse(text, parameter: "by")
        }
        let descending = parameters["order"]?.stringValue == "desc"
        try Task.checkCancellation()
        let keyed = items.enumerated().map { entry in
            let key: Value? = if let path { path.lookup(in: entry.element) } else { entry.element }
            return (offset: entry.offset, key: key, item: entry.element)
        }
        let sorted = keyed.sorted { a, b in
            let order = ValueOrder.compare(a.key, b.key)
            if order != 0 { return descending ? order > 0 : order < 0 }
            return a.offset < b.offset
        }
        return ["items": .array(sorted.map(\.item))]
    }
}
