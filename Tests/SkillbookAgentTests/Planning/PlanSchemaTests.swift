import SkillbookAgent
import SkillbookCore
import Testing

@Suite struct PlanSchemaTests {
    @Test func theResponseFormatHasExactlyTheNestingLlamaCppHonours() throws {
        let format = PlanSchema.responseFormat(offers("notes.create"))
        #expect(format.objectValue?.keys == ["type", "json_schema"])
        #expect(format["type"] == "json_schema")
        let inner = try #require(format["json_schema"])
        #expect(inner.objectValue?.keys == ["name", "strict", "schema"])
        #expect(inner["name"] == "plan")
        #expect(inner["strict"] == true)
        #expect(inner["schema"] == PlanSchema.schema(offers("notes.create")))
    }

    @Test func stepsAreAnAnyOfOverTheOfferedSkillsOrAQuestion() throws {
        let schema = PlanSchema.schema(offers("web.summary", "notes.create"))
        let branches = try #require(schema["anyOf"]?.arrayValue)
        #expect(branches.count == 2)
        #expect(branches[1]["required"] == ["question"])
        let items = try #require(branches[0]["properties"]?["steps"]?["items"]?["anyOf"]?.arrayValue)
        #expect(items.map { $0["properties"]?["skill"]?["const"] } == ["web.summary", "notes.create"])
        let with = try #require(items[1]["properties"]?["with"])
        #expect(with["required"] == ["title"])
        #expect(with["additionalProperties"] == false)
        let title = try #require(with["properties"]?["title"]?["anyOf"]?.arrayValue)
        #expect(
            title[0] == [
                "type": "string", "description": "A short title for the note.", "minLength": 1, "maxLength": 200,
                "pattern": .string(PlanSchema.noTemplatePattern),
            ])
        // A literal cannot hold {{ }}: an earlier step's value can only be a reference.
        let literal = try Regex(PlanSchema.noTemplatePattern)
        #expect(try literal.wholeMatch(in: "{{ page.title }}") == nil)
        #expect(try literal.wholeMatch(in: "${{ steps.page.output.title }}") == nil)
        #expect(try literal.wholeMatch(in: "Notes {draft} from today") != nil)
        // Only the escapes JSON allows (the pattern applies to the string's JSON text): a regular
        // expression's \. must be written \\. or the server cannot read the answer.
        #expect(try literal.wholeMatch(in: #"[a-z]+@[a-z]+\.com"#) == nil)
        #expect(try literal.wholeMatch(in: #"[a-z]+@[a-z]+\\.com"#) != nil)
        #expect(try literal.wholeMatch(in: #"line\nnext \"quoted\" caf\u00e9"#) != nil)
        // A text parameter refers only to text fields: not to status (an integer) or links.*.url (a list).
        #expect(
            title[1]["pattern"]
                == .string(PlanSchema.referencePattern(fields: ["url", "title", "description", "first_paragraph", "language", "id"])))
    }

    @Test func aListParameterRefersToListsAndItsItemsToTexts() throws {
        let schema = PlanSchema.schema(offers("files.list", "files.copy"))
        let items = try #require(schema["anyOf"]?.arrayValue?[0]["properties"]?["steps"]?["items"]?["anyOf"]?.arrayValue)
        let paths = try #require(items[1]["properties"]?["with"]?["properties"]?["paths"]?["anyOf"]?.arrayValue)
        #expect(paths[1]["pattern"] == .string(PlanSchema.referencePattern(fields: ["items.*.path", "items.*.modified", "copied.*.from", "copied.*.to", "created"])))
        // Each item of a literal list: a text, or a reference to a text field (there is none here).
        #expect(paths[0]["type"] == "array")
        #expect(paths[0]["items"]?["type"] == "string")
        let regex = try Regex(try #require(paths[1]["pattern"]?.stringValue))
        #expect("${{ steps.s1.output.items.*.path }}".wholeMatch(of: regex) != nil)
        #expect("${{ steps.s1.output.count }}".wholeMatch(of: regex) == nil)
        // A parameter no output field fits is a literal only: `glob` (a text) has no reference
        // branch, since both skills give only lists, numbers and booleans.
        let glob = try #require(items[0]["properties"]?["with"]?["properties"]?["glob"])
        #expect(glob["anyOf"] == nil)
        #expect(glob["type"] == "string")
        #expect(glob["pattern"] == .string(PlanSchema.noTemplatePattern))
    }

    @Test func optionalParametersWithDefaultsAreOfferedOnlyWhenTheRequestNamesThem() throws {
        let offer = try #require(shippedOffers["files.list"])
        #expect(offer.trimmed(for: "list the files in /tmp recursively").parameters.properties.map(\.name) == ["root", "glob", "recursive"])
        #expect(offer.trimmed(for: "list the files in /tmp").parameters.properties.map(\.name) == ["root", "glob"])
        let join = try #require(shippedOffers["text.join"])
        // An adapter's optional texts (prefix, suffix) only when named; a note's body, whose default
        // is empty too, is where an earlier step's text goes: kept.
        #expect(join.trimmed(for: "join the titles").parameters.properties.map(\.name) == ["items"])
        #expect(
            join.trimmed(for: "join the titles with a comma separator").parameters.properties.map(\.name)
                == ["items", "separator"])
        #expect(join.trimmed(for: "join the titles with the prefix '- '").parameters.properties.map(\.name) == ["items", "prefix"])
        let note = try #require(shippedOffers["notes.create"])
        #expect(note.trimmed(for: "save it as a note").parameters.properties.map(\.name) == ["title", "body"])
        #expect(note.trimmed(for: "save it as a note tagged a").parameters.properties.map(\.name) == ["title", "body", "tags"])
        // A set of values with a default stays when the request names another of its values; an
        // object (headers) or a list of objects (copies) only when named.
        let write = try #require(shippedOffers["files.write"])
        #expect(write.trimmed(for: "write it to /tmp/a.txt").parameters.properties.map(\.name) == ["path", "content"])
        #expect(write.trimmed(for: "append it to /tmp/a.txt").parameters.properties.map(\.name) == ["path", "content", "mode"])
        // A Chinese request names a parameter or a value in Chinese ("追加" is append).
        #expect(write.trimmed(for: "追加到 /tmp/a.txt").parameters.properties.map(\.name) == ["path", "content", "mode"])
        let fetch = try #require(shippedOffers["web.fetch"])
        #expect(fetch.trimmed(for: "fetch https://example.org").parameters.properties.map(\.name) == ["url"])
        #expect(fetch.trimmed(for: "fetch https://example.org with the headers X").parameters.properties.map(\.name) == ["url", "headers"])
        let copy = try #require(shippedOffers["files.copy"])
        #expect(copy.trimmed(for: "copy /tmp/a into /tmp/b").parameters.properties.map(\.name) == ["paths", "into"])
        // The skill's own verb names the skill, not its list of { from, to }: "move them" is not `moves`.
        let move = try #require(shippedOffers["files.move"])
        #expect(move.trimmed(for: "move them into /tmp/old-logs").parameters.properties.map(\.name) == ["paths", "into"])
    }

    @Test func aPlanHasAtMostOneStepMoreThanTheRequestHasClauses() throws {
        let format = PlanSchema.responseFormat(offers("notes.create"), maxSteps: 3)
        #expect(format["json_schema"]?["schema"]?["anyOf"]?.arrayValue?[0]["properties"]?["steps"]?["maxItems"] == 3)
        #expect(PlanSchema.schema(offers("notes.create"))["anyOf"]?.arrayValue?[0]["properties"]?["steps"]?["maxItems"] == nil)
    }

    @Test func referencesAreLimitedToOutputFieldsIncludingListItemFields() throws {
        let pattern = PlanSchema.referencePattern(offers("files.list"))
        #expect(pattern.hasPrefix(#"^\$\{\{ steps\.s[1-9]\.output\.("#))
        #expect(pattern.contains(#"|items\.\*\.path|"#))
        #expect(pattern.hasSuffix(#") \}\}$"#))
        let regex = try Regex(pattern)
        #expect("${{ steps.s1.output.items.*.path }}".wholeMatch(of: regex) != nil)
        #expect("${{ steps.s1.output.items | join }}".wholeMatch(of: regex) == nil)
        #expect("${{ steps.s1.output.invented }}".wholeMatch(of: regex) == nil)
    }

    @Test func secretParametersAreNotOffered() throws {
        let offer = try #require(shippedOffers["notify.send"])
        #expect(offer.parameters.property("webhook") == nil)
        #expect(offer.parameters.property("message") != nil)
        let schema = PlanSchema.schema([offer])
        let step = try #require(schema["anyOf"]?.arrayValue?.first?["properties"]?["steps"]?["items"]?["anyOf"]?.arrayValue?.first)
        #expect(step["properties"]?["with"]?["properties"]?.objectValue?.keys == ["message", "title", "desktop"])
        #expect(!JSONText.encode(schema).contains("\"secret\""))
    }
}

@Suite struct PlanSchemaSkeletonTests {
    static func schema(_ request: String) throws -> Value {
        let skeleton = try #require(PlanSkeletonTests.skeleton(request)).trimmed(for: request)
        return try #require(PlanSchema.schema(skeleton, values: RequestValues(request)))
    }

    /// Parameter `name` of a step's `with`.
    static func parameter(_ step: Value, _ name: String) -> Value? {
        step["properties"]?["with"]?["properties"]?[name]
    }

    /// The pattern of a step's parameter `name` as a regular expression.
    static func pattern(_ step: Value, _ name: String) throws -> Regex<AnyRegexOutput> {
        try Regex(try #require(parameter(step, name)?["pattern"]?.stringValue))
    }

    static func steps(_ schema: Value, sequence: Int = 0) throws -> [Value] {
        try #require(
            schema["anyOf"]?.arrayValue?[sequence]["properties"]?["steps"]?["prefixItems"]?.arrayValue)
    }

    @Test func aSequenceIsAFixedListOfStepsInOrderOrAQuestion() throws {
        let schema = try Self.schema("read /tmp/todo.txt and save it as a note titled Todo")
        let branches = try #require(schema["anyOf"]?.arrayValue)
        #expect(branches.count == 2)
        #expect(branches[1]["required"] == ["question"])
        let list = try #require(branches[0]["properties"]?["steps"])
        #expect(list["minItems"] == 2)
        #expect(list["maxItems"] == 2)
        let steps = try Self.steps(schema)
        #expect(steps[0]["properties"]?["skill"]?["const"] == "files.read")
        // notes.create_many takes a list of notes, which nothing files.read gives can be: left out.
        #expect(steps[1]["properties"]?["skill"]?["const"] == "notes.create")
    }

    @Test func aStepAfterAQueryPassesItsOutputOnIntoContentNotALabel() throws {
        let steps = try Self.steps(
            try Self.schema("read /tmp/todo.txt and save it as a note titled Todo"))
        let note = try #require(steps[1]["properties"]?["with"])
        // body must be a reference to s1 (title, a label of at most 200 characters, stays free).
        #expect(note["required"] == ["title", "body"])
        let body = try Regex(try #require(note["properties"]?["body"]?["pattern"]?.stringValue))
        #expect("${{ steps.s1.output.content }}".wholeMatch(of: body) != nil)
        #expect("${{ steps.s2.output.content }}".wholeMatch(of: body) == nil)
        #expect("the file".wholeMatch(of: body) == nil)
        let title = try #require(note["properties"]?["title"]?["anyOf"]?.arrayValue)
        #expect(title[0]["pattern"] == .string(PlanSchema.noTemplatePattern))
        // The first step refers to nothing: there is no earlier step.
        #expect(Self.parameter(steps[0], "path")?["anyOf"] == nil)
    }

    /// A slot's targets that can take the query's output win over those that cannot: "tell me what
    /// it says" tied hello-notes (no parameters) with notify.send, and the model named hello-notes.
    @Test func afterAQueryTheTargetsThatTakeItsOutputWin() throws {
        let request = "fetch https://example.com/status.json and tell me what it says"
        let skeleton = try #require(PlanSkeletonTests.skeleton(request)).trimmed(for: request)
        // (asked to be told: a notification, where hello-notes once tied with notify.send)
        #expect(skeleton.slots[1].names == ["notify.send"])
        let shape = try #require(PlanSchema.shape(skeleton, values: RequestValues(request)))
        #expect(shape.sequences.map { $0.map(\.names) } == [[["web.fetch"], ["notify.send"]]])
    }

    /// "email it to ADDRESS via smtp://…": the server starts with the smtp address (not the web
    /// page's), the recipients are the address named, never a reference to what a step found.
    @Test func aMailGoesToTheNamedAddressThroughTheNamedServer() throws {
        let request = "summarise https://example.com/blog and email it to ana@example.com via smtp://127.0.0.1:2525"
        let skeleton = try #require(PlanSkeletonTests.skeleton(request)).trimmed(for: request)
        #expect(skeleton.slots.map(\.names) == [["web.summary"], ["mail.send"]])
        // However weakly its words match: no doubt, so no question of the order to the model first.
        let weak = try #require(
            PlanSkeletonTests.skeleton("can you summarise https://example.com/blog and email the summary to ana@example.com through smtp://127.0.0.1:2525"))
        #expect(weak.slots.map(\.names) == [["web.summary"], ["mail.send"]])
        #expect(weak.doubts.isEmpty)
        let steps = try Self.steps(try Self.schema(request))
        let mail = try #require(steps.first { $0["properties"]?["skill"]?["const"] == "mail.send" })
        // (`with` is one object per parameter the web page's text may go into)
        let variants = try #require(mail["properties"]?["with"]?["anyOf"]?.arrayValue)
        for with in variants {
            let literal = try #require(with["properties"]?["server"]?["anyOf"]?.arrayValue?.first)
            let server = try Regex(try #require(literal["pattern"]?.stringValue))
            #expect("smtp://127.0.0.1:2525".wholeMatch(of: server) != nil)
            #expect("smtp://mail.example.org".wholeMatch(of: server) == nil)
            let to = try #require(with["properties"]?["to"])
            #expect(to["anyOf"] == nil, "a reference is no recipient the request named")
            let item = try Regex(try #require(to["items"]?["pattern"]?.stringValue))
            #expect("ana@example.com".wholeMatch(of: item) != nil)
            #expect("user@example.com".wholeMatch(of: item) == nil)
        }
    }

    @Test func aRegularExpressionIsNoContentSoTheTextTakesWhatWasRead() throws {
        let steps = try Self.steps(
            try Self.schema("read /tmp/contacts.txt, pull out the phone numbers and save them as a note called Phones"))
        let extract = try #require(steps.first { $0["properties"]?["skill"]?["const"] == "text.extract" }?["properties"]?["with"])
        // `regex` is format regex, not content: the file's text goes into `text`, never into `regex`.
        #expect(extract["required"] == ["text", "regex"])
        let text = try Regex(try #require(extract["properties"]?["text"]?["pattern"]?.stringValue))
        #expect("${{ steps.s1.output.content }}".wholeMatch(of: text) != nil)
        #expect("content".wholeMatch(of: text) == nil)
        #expect(extract["properties"]?["regex"]?["anyOf"]?.arrayValue?.first?["format"] == "regex")
    }

    @Test func aStepRefersOnlyToEarlierStepsEachByItsOwnFields() throws {
        let steps = try Self.steps(
            try Self.schema(
                "list the files in /tmp/reports, join their paths into one text and write it to /tmp/reports.txt"
            ))
        #expect(
            steps.map { $0["properties"]?["skill"]?["const"] } == [
                "files.list", "text.join", "files.write"])
        let join = try Self.pattern(steps[1], "items")
        #expect("${{ steps.s1.output.items.*.path }}".wholeMatch(of: join) != nil)
        #expect("${{ steps.s2.output.text }}".wholeMatch(of: join) == nil)
        // text.join is the clause's own step here, and still joins texts, not file objects.
        #expect("${{ steps.s1.output.items }}".wholeMatch(of: join) == nil)
        let content = try Self.pattern(steps[2], "content")
        #expect("${{ steps.s2.output.text }}".wholeMatch(of: content) != nil)
        // s1 (files.list) has no text field: only s2's text fits a text.
        #expect("${{ steps.s1.output.text }}".wholeMatch(of: content) == nil)
    }

    @Test func aPathLiteralStartsWithOneTheRequestNames() throws {
        let steps = try Self.steps(
            try Self.schema("read /tmp/todo.txt and save it as a note titled Todo"))
        let path = try #require(Self.parameter(steps[0], "path"))
        #expect(path["format"] == "path")
        let regex = try Regex(try #require(path["pattern"]?.stringValue))
        #expect("/tmp/todo.txt".wholeMatch(of: regex) != nil)
        #expect("/tmp/todo.txt.bak".wholeMatch(of: regex) != nil)
        #expect("tmp/todo.txt".wholeMatch(of: regex) == nil)
        #expect("/tmp/todoXtxt".wholeMatch(of: regex) == nil)
        // A request that names no path leaves paths free.
        let free = PlanSchema.schema(offers("files.read"), values: RequestValues("read my todo list"))
        let items = try #require(
            free["anyOf"]?.arrayValue?[0]["properties"]?["steps"]?["items"]?["anyOf"]?.arrayValue)
        #expect(
            Self.parameter(items[0], "path")?["anyOf"]?.arrayValue?[0]["pattern"]
                == .string(PlanSchema.noTemplatePattern))
    }

    @Test func aStepWithContentTheQueryCannotReachHasNoSequence() throws {
        // notes.list gives lists and a count; notify.send's message is a text: nothing can pass on.
        let unreachable = PlanSkeleton(slots: [
            .init(clause: "list my notes", offers: offers("notes.list")), .init(clause: "notify me", offers: offers("notify.send"))])
        #expect(PlanSchema.schema(unreachable) == nil)
        // files.mkdir takes no content (a path): it is not held to pass the list on, its path stays a literal.
        let folder = PlanSkeleton(slots: [
            .init(clause: "list my notes", offers: offers("notes.list")), .init(clause: "make a folder", offers: offers("files.mkdir"))])
        let steps = try Self.steps(try #require(PlanSchema.schema(folder)))
        #expect(steps[1]["properties"]?["with"]?["required"] == ["path"])
        // "summarize A and summarize B": the second url is the request's, not the first page's.
        let twice = try Self.steps(try Self.schema("summarize https://a.example.com and summarize https://b.example.org"))
        let url = try #require(Self.parameter(twice[1], "url")?["anyOf"]?.arrayValue?[0]["pattern"]?.stringValue)
        #expect("https://b.example.org".wholeMatch(of: try Regex(url)) != nil)
    }

    @Test func anAdapterJoinsAListOfTextsNotOfObjects() throws {
        let schema = try Self.schema(
            "list my notes tagged work and save their titles as a note called Work titles")
        // Without text.join, notes.create has nothing that can take a list of notes (tags is left
        // out: the request names none): only the sequence through the adapter, and the question.
        #expect(schema["anyOf"]?.arrayValue?.count == 2)
        let steps = try Self.steps(schema)
        #expect(
            steps.map { $0["properties"]?["skill"]?["const"] } == [
                "notes.list", "text.join", "notes.create"])
        let items = try Self.pattern(steps[1], "items")
        #expect("${{ steps.s1.output.items.*.title }}".wholeMatch(of: items) != nil)
        #expect("${{ steps.s1.output.items }}".wholeMatch(of: items) == nil)
    }

    @Test func anAdapterJoinsAListOfTextsAlsoAfterASlotWithAnAction() throws {
        // The first slot is notes.list or notes.create_many (an action): text.join still takes
        // only lists of texts or numbers, never the notes themselves.
        let schema = try Self.schema("list the notes tagged ideas and write their titles to /tmp/ideas.txt")
        let joins = Self.steps(named: "text.join", in: schema)
        #expect(!joins.isEmpty)
        var titles = 0
        for join in joins {
            // A list of literals, or a reference: every reference pattern takes item fields only.
            let patterns = Self.patterns(in: try #require(Self.parameter(join, "items")))
            #expect(!patterns.isEmpty)
            for pattern in patterns {
                let items = try Regex(pattern)
                if "${{ steps.s1.output.items.*.title }}".wholeMatch(of: items) != nil { titles += 1 }
                #expect("${{ steps.s1.output.items }}".wholeMatch(of: items) == nil)
            }
        }
        // The notes' titles after notes.list (each first target is a sequence of its own).
        #expect(titles > 0)
    }

    /// A slot of two targets with other outputs is a sequence each: a later step refers only to
    /// the fields of the target named before it.
    @Test func aLaterStepRefersOnlyToTheFieldsOfTheTargetBeforeIt() throws {
        let schema = try Self.schema("get the page https://swift.org and notify me with its title")
        let plans = try #require(schema["anyOf"]?.arrayValue).dropLast()  // the question last
        #expect(plans.count == 2)
        for plan in plans {
            let items = try #require(plan["properties"]?["steps"]?["prefixItems"]?.arrayValue)
            let first = try #require(items[0]["properties"]?["skill"]?["const"]?.stringValue)
            let patterns = try Self.patterns(in: items[1]).map { try Regex($0) }
            let title = patterns.contains { "${{ steps.s1.output.title }}".wholeMatch(of: $0) != nil }
            #expect(title == (first == "web.summary"), "\(first)")
        }
    }

    /// Every `pattern` in `schema`.
    static func patterns(in schema: Value) -> [String] {
        if let object = schema.objectValue {
            return (object["pattern"]?.stringValue.map { [$0] } ?? []) + object.flatMap { patterns(in: $0.value) }
        }
        return schema.arrayValue?.flatMap { patterns(in: $0) } ?? []
    }

    /// Every step schema in `schema` that names `skill`.
    static func steps(named skill: String, in schema: Value) -> [Value] {
        if let object = schema.objectValue {
            if object["properties"]?["skill"]?["const"] == .string(skill) { return [schema] }
            return object.flatMap { steps(named: skill, in: $0.value) }
        }
        return schema.arrayValue?.flatMap { steps(named: skill, in: $0) } ?? []
    }

    /// The values step `k` of the first sequence is given without the model writing them.
    static func fixed(_ request: String, step k: Int) throws -> ValueObject {
        let skeleton = try #require(PlanSkeletonTests.skeleton(request)).trimmed(for: request)
        let shape = try #require(PlanSchema.shape(skeleton, values: RequestValues(request)))
        return try #require(shape.sequences.first?[k].offers.first).fixedValues
    }

    @Test func aDateTheMatcherReadInTheClauseIsFixedAndNotAskedFor() throws {
        let request = "summarize https://example.com/blog and remind me tomorrow at 9am to read it"
        #expect(try Self.fixed(request, step: 1)["due"] == "2026-12-02T09:00:00+01:00")
        // The planner fills it in: the model writes neither it nor a date of its own.
        let reminder = try Self.steps(try Self.schema(request))[1]
        #expect(Self.parameter(reminder, "due") == nil)
        #expect(reminder["properties"]?["with"]?["required"]?.arrayValue?.contains("due") == false)
        #expect(reminder["properties"]?["with"]?["additionalProperties"] == false)
        let list = "list my reminders for tomorrow and save them as a note"
        #expect(try Self.fixed(list, step: 0) == ["due_on": "2026-12-02"])
        #expect(Self.parameter(try Self.steps(try Self.schema(list))[0], "due_on") == nil)
        // "tomorrow" is one date: not also a due_before the model would fill.
        #expect(Self.parameter(try Self.steps(try Self.schema(list))[0], "due_before") == nil)
        #expect(try Self.fixed("列出明天的提醒然后发通知给我", step: 0) == ["due_on": "2026-12-02"])
        // A bound fixes the parameter of that bound, at the start of the day it names, and no
        // date besides: "due before next Friday" is due_before 2026-12-04T00:00, no due_on.
        let bound = "list my reminders due before next Friday and save them as a note"
        #expect(try Self.fixed(bound, step: 0) == ["due_before": "2026-12-04T00:00:00+01:00"])
        #expect(Self.parameter(try Self.steps(try Self.schema(bound))[0], "due_on") == nil)
        #expect(try Self.fixed("列出下周五之前的提醒然后发通知给我", step: 0) == ["due_before": "2026-12-11T00:00:00+01:00"])
        // "by Friday" (its start or its end?) fixes nothing: the model may write a bound.
        let by = "list my reminders due by next Friday and save them as a note"
        #expect(try Self.fixed(by, step: 0).isEmpty)
        #expect(Self.parameter(try Self.steps(try Self.schema(by))[0], "due_before")?["enum"] == nil)
    }
}
