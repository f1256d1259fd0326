import Foundation
public import SkillbookCore

/// The JSON Schema a model's answer is decoded under, and the `response_format` that carries it.
///
/// The answer is `{"steps": [...]}` whose items are an `anyOf` over the offered skills and
/// playbooks — `skill` (or `playbook`) a `const`, `with` that target's parameter schema — or
/// `{"question": "…"}`. Any parameter may instead be a reference string, and references are
/// constrained by `referencePattern` to the output fields of the offered targets (list item fields
/// included), so a pipe, a function or an invented field cannot be decoded. For a request whose
/// shape the matcher reads (`PlanSkeleton`), `shape(_:values:)` builds a narrower schema: fixed
/// sequences of steps, references only to earlier steps, a query's output passed on.
public enum PlanSchema {
    /// `^\$\{\{ steps\.s[1-9]\.output\.(title|text|items\.\*\.path|…) \}\}$` over every output
    /// field of the offers. A step has no `id` to write: the steps are `s1`, `s2`… in order (the
    /// parser names them so), which saves a small model tokens and a reference cannot name a step
    /// that does not exist by another name.
    public static func referencePattern(_ offers: [PlanOffer]) -> String {
        referencePattern(fields: fields(of: offers, fitting: nil))
    }

    /// The reference pattern over `fields` (each a path such as `items.*.path`).
    public static func referencePattern(fields: [String]) -> String {
        "^\\$\\{\\{ steps\\.s[1-9]\\.output\\.(" + escaped(fields) + ") \\}\\}$"
    }

    /// `a|items\.\*\.path`: fields as alternatives of a pattern.
    static func escaped(_ fields: [String]) -> String {
        fields.map { field in
            field.replacingOccurrences(of: ".", with: "\\.").replacingOccurrences(of: "*", with: "\\*")
        }.joined(separator: "|")
    }

    /// The steps a parameter may refer to: a step id pattern (`s[1-9]` over every offer for a free
    /// plan; `s1`, `s2`… each over its own slot's offers in a skeleton).
    struct ReferenceScope {
        var sources: [(step: String, offers: [PlanOffer])]

        static func anyStep(_ offers: [PlanOffer]) -> ReferenceScope {
            ReferenceScope(sources: [("s[1-9]", offers)])
        }

        /// The pattern of a reference to a field whose type fits `schema`; `nil` when none fits.
        func pattern(fitting schema: Schema) -> String? {
            let parts = sources.compactMap { source -> String? in
                let fields = PlanSchema.fields(of: source.offers, fitting: schema)
                return fields.isEmpty
                    ? nil : source.step + "\\.output\\.(" + PlanSchema.escaped(fields) + ")"
            }
            guard !parts.isEmpty else { return nil }
            let body = parts.count == 1 ? parts[0] : "(" + parts.joined(separator: "|") + ")"
            return "^\\$\\{\\{ steps\\." + body + " \\}\\}$"
        }
    }

    /// The offers' output fields, in order and without repeats; with `schema`, only those whose
    /// type fits it (a text parameter cannot refer to a list, a list parameter not to a text).
    static func fields(of offers: [PlanOffer], fitting schema: Schema?) -> [String] {
        var fields: [String] = []
        for offer in offers {
            for field in offer.outputFields where !fields.contains(field) {
                if let schema, !offer.type(of: field).isAssignable(to: schema) { continue }
                fields.append(field)
            }
        }
        return fields
    }

    /// `S`: the schema of a whole answer; a plan has `minSteps` to `maxSteps` steps. A path or
    /// address parameter's literal starts with one the request names (`values`), when it names any.
    public static func schema(
        _ offers: [PlanOffer], minSteps: Int = 1, maxSteps: Int? = nil,
        values: RequestValues = RequestValues()
    ) -> Value {
        let scope = ReferenceScope.anyStep(offers)
        let steps = offers.compactMap { step($0, scope: scope, values: values) }
        let least = max(1, minSteps)
        var list: ValueObject = [
            "type": "array", "minItems": .int(least), "items": ["anyOf": .array(steps)],
        ]
        if let maxSteps { list["maxItems"] = .int(max(least, maxSteps)) }
        return ["anyOf": [plan(list), question]]
    }

    /// A skeleton's answer schema and the sequences it allows, each slot holding only the targets
    /// a step can be written for (what the prompt then lists).
    public struct Shape: Sendable {
        public var schema: Value
        public var sequences: [[PlanSkeleton.Slot]]

        /// The targets of every sequence, each once, in order.
        public var offers: [PlanOffer] {
            var seen: Set<String> = []
            return sequences.flatMap { $0.flatMap(\.offers) }.filter { seen.insert($0.name).inserted }
        }
    }

    /// `S` for a skeleton: an `anyOf` over its sequences (`PlanSkeleton.sequences`), each a
    /// fixed list of steps (`prefixItems`). Step k names one of its slot's targets and refers only
    /// to steps before it, each by that step's own output fields; after a query, step k must pass
    /// the query's output into a content parameter when it has one (`step`). A target no step can
    /// be written for is left out, and a sequence with an empty slot; `nil` when none is left.
    public static func shape(_ skeleton: PlanSkeleton, values: RequestValues = RequestValues()) -> Shape? {
        var plans: [Value] = []
        var kept: [[PlanSkeleton.Slot]] = []
        for sequence in skeleton.sequences {
            var written: [PlanSkeleton.Slot]?
            for variant in variants(of: sequence) {
                guard let (items, slots) = steps(of: variant, values: values) else { continue }
                plans.append(
                    plan(["type": "array", "prefixItems": .array(items), "minItems": .int(items.count), "maxItems": .int(items.count)]))
                written = written.map { zip($0, slots).map(merged) } ?? slots
            }
            if let written { kept.append(written) }
        }
        guard !plans.isEmpty else { return nil }
        return Shape(schema: ["anyOf": .array(plans + [question])], sequences: kept)
    }

    /// The step schemas of one sequence and its slots as written (each with the offers a step could
    /// be written for); `nil` when a slot has none.
    static func steps(of sequence: [PlanSkeleton.Slot], values: RequestValues) -> ([Value], [PlanSkeleton.Slot])? {
        var items: [Value] = []
        var slots: [PlanSkeleton.Slot] = []
        for (k, slot) in sequence.enumerated() {
            let scope = ReferenceScope(sources: (0..<k).map { ("s\($0 + 1)", slots[$0].offers) })
            // An adapter (text.join) joins a list of texts or numbers, not of objects (a note, a
            // file), whatever the step before it is (notes.list or notes.create_many).
            let scalars = ReferenceScope(sources: (0..<k).map { ("s\($0 + 1)", slots[$0].offers.map(\.keepingScalarLists)) })
            let query = k > 0 && slots[k - 1].offers.allSatisfy { $0.kind == .query } ? slots[k - 1].offers : nil
            var written = slot
            written.offers = []
            var steps: [Value] = []
            var receiving: [Bool] = []
            for offer in slot.offers {
                let passOn = query.map { given in
                    ReferenceScope(sources: [("s\(k)", offer.isAdapter ? given.map(\.keepingScalarLists) : given)])
                }
                guard let step = step(offer, scope: offer.isAdapter ? scalars : scope, values: values, passingOn: passOn) else {
                    continue
                }
                steps.append(step)
                written.offers.append(offer)
                // A step written with content parameters after a query takes its output (`step`).
                receiving.append(passOn != nil && offer.parameters.properties.contains { isContent($0.schema) })
            }
            // After a query, the targets of a slot that can take its output win over those that
            // cannot ("fetch X and tell me what it says": notify.send, not the hello-notes playbook).
            if receiving.contains(true), receiving.contains(false) {
                steps = zip(steps, receiving).filter(\.1).map(\.0)
                written.offers = zip(written.offers, receiving).filter(\.1).map(\.0)
            }
            guard !steps.isEmpty else { return nil }
            items.append(steps.count == 1 ? steps[0] : ["anyOf": .array(steps)])
            slots.append(written)
        }
        return (items, slots)
    }

    /// At most this many sequences one sequence is written as (`variants(of:)`).
    static let maximumVariants = 8

    /// A sequence as the answer schema writes it: a slot of several targets with other outputs
    /// (web.fetch or web.summary: `text` or `title`) that a later step may refer to is split into one
    /// sequence per target, so that a later step refers only to the fields of the one named before
    /// it ("notify me with its title" after web.fetch cannot be written). Unsplit when that would
    /// make more than `maximumVariants`.
    static func variants(of sequence: [PlanSkeleton.Slot]) -> [[PlanSkeleton.Slot]] {
        var variants: [[PlanSkeleton.Slot]] = [[]]
        for (k, slot) in sequence.enumerated() {
            let fields = Set(slot.offers.map { Set($0.outputFields) })
            let choices =
                k < sequence.count - 1 && fields.count > 1
                ? slot.offers.map { PlanSkeleton.Slot(clause: slot.clause, offers: [$0], hints: slot.hints) } : [slot]
            variants = variants.flatMap { variant in choices.map { variant + [$0] } }
            if variants.count > maximumVariants { return [sequence] }
        }
        return variants
    }

    /// A slot with the offers of `other` (the same slot of another variant) added.
    static func merged(_ slot: PlanSkeleton.Slot, _ other: PlanSkeleton.Slot) -> PlanSkeleton.Slot {
        var slot = slot
        for offer in other.offers where !slot.offers.contains(where: { $0.name == offer.name }) { slot.offers.append(offer) }
        return slot
    }

    /// `S` for a skeleton (`shape(_:values:)`'s schema).
    public static func schema(_ skeleton: PlanSkeleton, values: RequestValues = RequestValues()) -> Value? {
        shape(skeleton, values: values)?.schema
    }

    static func plan(_ list: ValueObject) -> Value {
        [
            "type": "object", "properties": ["steps": .object(list)], "required": ["steps"],
            "additionalProperties": false,
        ]
    }

    static let question: Value = [
        "type": "object", "properties": ["question": ["type": "string", "minLength": 1]],
        "required": ["question"],
        "additionalProperties": false,
    ]

    /// `{"type": "json_schema", "json_schema": {"name": "plan", "strict": true, "schema": S}}`: this
    /// nesting exactly (llama.cpp ignores a `schema` beside `type` and decodes unconstrained).
    public static func responseFormat(
        _ offers: [PlanOffer], minSteps: Int = 1, maxSteps: Int? = nil,
        values: RequestValues = RequestValues()
    ) -> Value {
        responseFormat(schema: schema(offers, minSteps: minSteps, maxSteps: maxSteps, values: values))
    }

    /// The response format that carries `schema`.
    public static func responseFormat(schema: Value) -> Value {
        ["type": "json_schema", "json_schema": ["name": "plan", "strict": true, "schema": schema]]
    }

    /// One step naming `offer`. With `passingOn` and a content parameter (`isContent`), some
    /// content parameter must be a reference into that scope (an `anyOf` over those that can take
    /// one); `nil` when none can (the query's output cannot reach this step without an adapter).
    /// A required parameter with one allowed value is left out: the planner fills it in (`FixedValues`).
    static func step(
        _ offer: PlanOffer, scope: ReferenceScope, values: RequestValues,
        passingOn: ReferenceScope? = nil
    ) -> Value? {
        let fixed = offer.fixedValues
        let required = offer.required.filter { fixed[$0] == nil }
        var properties: ValueObject = [:]
        for (name, schema) in offer.parameters.properties where fixed[name] == nil {
            properties[name] = value(schema, name: name, scope: scope, values: values)
        }
        func object(_ properties: ValueObject, required: [String]) -> Value {
            [
                "type": "object", "properties": .object(properties),
                "required": .array(required.map(Value.string)), "additionalProperties": false,
            ]
        }
        var with = object(properties, required: required)
        if let passingOn, offer.parameters.properties.contains(where: { isContent($0.schema) }) {
            let options = receivers(offer, of: passingOn, values: values).map { name, pattern -> Value in
                var passing = properties
                passing[name] = ["type": "string", "pattern": .string(pattern)]
                return object(passing, required: required + (required.contains(name) ? [] : [name]))
            }
            guard !options.isEmpty else { return nil }
            with = options.count == 1 ? options[0] : ["anyOf": .array(options)]
        }
        let key = offer.layer == .skill ? "skill" : "playbook"
        return [
            "type": "object",
            "properties": [key: ["const": .string(offer.name)], "with": with],
            "required": [.string(key), "with"], "additionalProperties": false,
        ]
    }

    /// The parameters of `offer` that may receive what `scope` gives, each with the pattern of the
    /// references it may take: its content parameters (`isContent`) that a field fits.
    static func receivers(_ offer: PlanOffer, of scope: ReferenceScope, values: RequestValues) -> [(name: String, pattern: String)] {
        offer.parameters.properties.compactMap { name, schema in
            guard isContent(schema), !takesNamedValue(schema, values: values), let pattern = scope.pattern(fitting: schema) else { return nil }
            return (name, pattern)
        }
    }

    /// A mail address parameter (or a list of them) when the request names mail addresses: it is
    /// one of those, never a reference ("email them to boss@example.com": `to` is that address, not
    /// the addresses some step finds in the text).
    static func takesNamedValue(_ schema: Schema, values: RequestValues) -> Bool {
        !values.emails.isEmpty && schema.holdsEmail
    }

    /// A parameter that takes content: a list, or a free text — no format (not a path, an address
    /// or a date), no set of values or pattern, and not a short label (`maxLength` ≤ 200: a note's
    /// or notification's `title`). After a query, a step with such parameters must pass the
    /// query's output into one; a step without any (web.summary's `url`, files.mkdir's `path`) is
    /// not held to it ("summarize A and summarize B").
    static func isContent(_ schema: Schema) -> Bool {
        switch schema.type {
        case .array: true
        case .string:
            schema.format == nil && schema.enumValues == nil && schema.pattern == nil && (schema.maxLength ?? .max) > 200
        default: false
        }
    }

    /// A parameter's value: a literal of its schema, or a reference to an output field whose type
    /// fits it; a list's items likewise. With no fitting field, only the literal.
    static func value(_ schema: Schema, name: String, scope: ReferenceScope, values: RequestValues) -> Value {
        var literal = literal(exported(schema), name: name, values: values)
        if schema.type == .array, let items = schema.items, case .object(var object) = literal {
            object["items"] = value(items, name: name, scope: scope, values: values)
            literal = .object(object)
        }
        // A date the request names (`PlanOffer.fixingDates`) is that date, not a reference.
        let fixed =
            schema.enumValues?.count == 1 && (schema.format == "date" || schema.format == "date-time")
        guard !fixed, !takesNamedValue(schema, values: values), let pattern = scope.pattern(fitting: schema) else { return literal }
        return ["anyOf": [literal, ["type": "string", "pattern": .string(pattern)]]]
    }

    /// Text without `{{` (a plain string of a free-text parameter): a value from an earlier step can
    /// then only be written as a reference, never as `{{ x }}` that would stay literal text.
    /// The class leaves out `"` and `\\` (an escape is its own branch): llama.cpp applies the pattern
    /// to the JSON text of the string, and an open class let the model write past its end. An escape
    /// is one JSON allows (`\\n`, `\\"`, `\\\\`, `\\u00e9`…): with any character after the backslash
    /// the model wrote a regular expression's `\\.` into JSON, and the server could not read its answer.
    public static let noTemplatePattern = #"^([^{"\\]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4}|\{[^{"\\])*\{?$"#

    /// A literal string parameter may not hold `{{` (except a `template`, whose placeholders are
    /// `{{name}}`); strings with a pattern or a fixed set of values keep theirs.
    /// A path or address (`format: path|uri`) starts with one the request names, when it names any.
    static func literal(_ schema: Value, name: String, values: RequestValues) -> Value {
        guard case .object(var object) = schema, object["type"] == "string", object["pattern"] == nil,
            object["enum"] == nil,
            object["const"] == nil, name != "template"
        else { return schema }
        let prefixes = values.prefixes(for: object["format"]?.stringValue)
        object["pattern"] = .string(prefixes.isEmpty ? noTemplatePattern : startPattern(prefixes))
        return .object(object)
    }

    /// `^(/tmp/a([/._?#:-][^"\\]*)?|/tmp/b\.txt([/._?#:-][^"\\]*)?)$`: one of `prefixes`, or one
    /// followed by a path separator, a dot, `_`, `-` (or an address's `?`, `#`, `:`) and more
    /// (`/tmp/a/b`, `/tmp/a.tar.gz`): not `/tmp/ab`, a name the model made by running on
    /// (`/tmp/photost`). A prefix that ends in `/` is a folder: anything may follow it.
    static func startPattern(_ prefixes: [String]) -> String {
        let special: Set<Character> = [
            "\\", ".", "^", "$", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|",
        ]
        let escaped = prefixes.map { prefix in
            prefix.reduce(into: "") { out, c in
                if special.contains(c) { out.append("\\") }
                out.append(c)
            }
        }
        let rest = "[^\"\\\\]*"
        let alternatives = escaped.map { $0.hasSuffix("/") ? $0 + rest : $0 + "([/._?#:-]" + rest + ")?" }
        return "^(" + alternatives.joined(separator: "|") + ")$"
    }

    /// A parameter schema as the model sees it: no `secret`, `examples` or `default` noise.
    static func exported(_ schema: Schema) -> Value {
        guard case .object(var object) = JSONSchemaExport.export(schema) else { return [:] }
        object["examples"] = nil
        object["secret"] = nil
        return .object(object)
    }
}
