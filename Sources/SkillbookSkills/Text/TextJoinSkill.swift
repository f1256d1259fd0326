import SkillbookCore

/// `text.join`: a list written as one text.
struct TextJoinSkill: Skill {
    let descriptor = SkillDescriptor(
        id: "text.join",
        title: "Join a list into text",
        summary: "Writes the items of a list as one text and returns { text }: each item as text (numbers and "
            + "true/false as written, lists and objects as JSON; null items are left out), with prefix before "
            + "and suffix after each item, and separator between items (a line break unless given). For "
            + "example items [milk, eggs] with prefix '- ' give two lines '- milk' and '- eggs'.",
        examples: [
            "join these lines", "make a bulleted list from the titles", "combine the items into one text",
            "join the names with commas", "把这些行合并成一段文本", "用逗号连接这些名字",
        ],
        tags: ["text", "list", "format"],
        kind: .query,
        parameters: .object(
            [
                "items": .array(.anyValue("An item: text, a number, true/false, a list or an object."), "The items to join."),
                "separator": .string("Written between two items; a line break unless given.", default: "\n"),
                "prefix": .string("Written before each item, such as '- ' for a bulleted list.", default: ""),
                "suffix": .string("Written after each item.", default: ""),
            ],
            required: ["items"]),
        output: .object(["text": .string("The joined text; empty for an empty list.")], required: ["text"]),
        timeout: 10,
        idempotent: true)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let parameters = parameters.applyingDefaults(of: descriptor.parameters)
        let items = parameters["items"]?.arrayValue ?? []
        let separator = parameters["separator"]?.stringValue ?? "\n"
        let prefix = parameters["prefix"]?.stringValue ?? ""
        let suffix = parameters["suffix"]?.stringValue ?? ""
        let text = items.filter { $0 != .null }.map { prefix + $0.interpolatedText + suffix }.joined(separator: separator)
        return ["text": .string(text)]
    }
}
