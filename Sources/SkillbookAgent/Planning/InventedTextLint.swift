import Foundation
import SkillbookCore

/// An optional text the model made up for an action: reminders.create `notes: "会议在会议室A"` for
/// "提醒我下周三上午十点开会", mail.send `username: "your-username"`, notify.send `title: "任务完成"` —
/// words the person never said, saved, sent or shown as if they had. An optional free text
/// (`Schema.isFreeText`) of an action whose literal shares no word with the request (no word of
/// three or more letters or digits, no two Chinese characters in a row) is the model's. A literal
/// with nothing to compare (a number, one short word) is left alone. A text that is one of the
/// request's clauses word for word is another step's instruction, not this one's value. An optional
/// path that starts with none the request names is the model's too (`inventedPaths`). A required parameter is the
/// checker's and the judge's; a content after a query whose output nothing uses is where that
/// output belongs (`unusedQuery`). Its one fix is leaving the parameter out (`fixes`): the skill has a
/// default for it.
enum InventedTextLint {
    /// (`except`: parameters another lint has a fix of its own for.)
    static func lint(
        _ plan: Plan, kinds: [String: SkillDescriptor.Kind], parameters: [String: Schema], request: String, except: Set<PlanFix.Place> = []
    ) -> [Diagnostic] {
        let found = invented(plan, kinds: kinds, parameters: parameters, request: request, except: except)
        let places = Set(found.map { PlanFix.Place(step: $0.step, parameter: $0.name) })
        let made = found.map { i, name, text in
            let step = plan.steps[i]
            return Diagnostic.error(
                "step '\(step.id)' (\(step.target)) parameter '\(name)' is '\(text)', words the request does not hold; "
                    + "leave '\(name)' out unless the request gives it",
                path: "steps[\(i)].with.\(name)")
        }
        let copied = copiedPaths(plan, kinds: kinds, parameters: parameters, except: except.union(places)).map { i, name, text, other in
            let step = plan.steps[i]
            return Diagnostic.error(
                "step '\(step.id)' (\(step.target)) parameter '\(name)' is '\(text)', the value of its '\(other)'; leave '\(name)' out",
                path: "steps[\(i)].with.\(name)")
        }
        return made + copied
    }

    /// An action's optional path that repeats another of the step's values (archive.create
    /// `directory: "/tmp/x.tar.gz"`, the archive itself), or an optional text that is the same
    /// reference as another (mail.send `username` and `ca_file` both a file's content): a place
    /// the model filled from what was at hand, not one the request gives it. Not one `invented`
    /// already names.
    static func copiedPaths(
        _ plan: Plan, kinds: [String: SkillDescriptor.Kind], parameters: [String: Schema], except: Set<PlanFix.Place>
    ) -> [(step: Int, name: String, text: String, other: String)] {
        var found: [(step: Int, name: String, text: String, other: String)] = []
        for (i, step) in plan.steps.enumerated() where !step.isPlaybook && kinds[step.target] == .action {
            guard let schema = parameters[step.target] else { continue }
            for (name, value) in step.with where !schema.required.contains(name) && !except.contains(PlanFix.Place(step: i, parameter: name)) {
                guard let property = schema.property(name), property.type == .string,
                    let text = value.stringValue, property.format == "path" || text.utf8.containsTemplateOpening,
                    // (a reference repeated only between optional parameters: a required one, or a
                    // title that repeats the message's reference, is the plan's own choice)
                    let other = step.with.first(where: { other in
                        other.key != name && PlanLint.strings(in: other.value).contains(text)
                            && (property.format == "path" || !schema.required.contains(other.key))
                    })?.key
                else { continue }
                found.append((i, name, text, other))
            }
        }
        return found
    }

    /// Each invented text left out.
    static func fixes(
        _ plan: Plan, kinds: [String: SkillDescriptor.Kind], parameters: [String: Schema], request: String, except: Set<PlanFix.Place> = []
    ) -> [PlanFix] {
        let made = invented(plan, kinds: kinds, parameters: parameters, request: request, except: except)
        let places = Set(made.map { PlanFix.Place(step: $0.step, parameter: $0.name) })
        let copied = copiedPaths(plan, kinds: kinds, parameters: parameters, except: except.union(places))
        return made.map { PlanFix(step: $0.step, parameter: $0.name, value: nil) } + copied.map { PlanFix(step: $0.step, parameter: $0.name, value: nil) }
    }

    /// The step index, parameter and text of every invented text, in order.
    static func invented(
        _ plan: Plan, kinds: [String: SkillDescriptor.Kind], parameters: [String: Schema], request: String, except: Set<PlanFix.Place>
    ) -> [(step: Int, name: String, text: String)] {
        guard !request.isEmpty else { return [] }
        let folded = request.lowercased()
        let clauses = CompoundSplitter.clauses(of: request)
        let instructions = clauses.count > 1 ? Set(clauses.map(Self.bare)) : []
        let texts = plan.optionalFreeTexts(of: .action, kinds: kinds, parameters: parameters).filter { found in
            guard !except.contains(PlanFix.Place(step: found.step, parameter: found.name)),
                !(PlanSchema.isContent(found.property) && unusedQuery(before: found.step, in: plan, kinds: kinds))
            else { return false }
            // A clause of the request word for word ("…提醒我去取快递，并发个通知确认一下" planned with
            // reminders.create `notes: "发个通知确认一下"`) says what another step does, not a value.
            if instructions.contains(Self.bare(found.text)) { return true }
            // So is the words of another step's clause, when each step has its clause: a reminder's
            // `notes` that are "a note titled Dentist with their number …" of "…, and jot down a note
            // titled Dentist with their number …".
            if Self.belongsToAnother(found.text, step: found.step, of: plan, clauses: clauses) { return true }
            let pieces = comparable(found.text)
            return !pieces.isEmpty && !pieces.contains(where: folded.contains)
        }.map { ($0.step, $0.name, $0.text) }
        return (texts + inventedPaths(plan, kinds: kinds, parameters: parameters, request: request, except: except))
            .sorted { ($0.step, $0.name) < ($1.step, $1.name) }
    }

    /// An action's optional path literal (mail.send `ca_file: "/path/to/ca.pem"`, archive.create
    /// `directory`) that is no path the request names, nor inside or beside one (`/tmp/a` →
    /// `/tmp/a/b`, `/tmp/a.tar.gz`): a file the model made up, which the skill would then read.
    static func inventedPaths(
        _ plan: Plan, kinds: [String: SkillDescriptor.Kind], parameters: [String: Schema], request: String, except: Set<PlanFix.Place>
    ) -> [(step: Int, name: String, text: String)] {
        let named = RequestValues(request).paths
        var found: [(step: Int, name: String, text: String)] = []
        for (i, step) in plan.steps.enumerated() where !step.isPlaybook && kinds[step.target] == .action {
            guard let schema = parameters[step.target] else { continue }
            for (name, value) in step.with where !schema.required.contains(name) && !except.contains(PlanFix.Place(step: i, parameter: name)) {
                guard let property = schema.property(name), property.type == .string, property.format == "path",
                    let text = value.stringValue, !text.utf8.containsTemplateOpening, !named.contains(where: { Self.fits(text, named: $0) })
                else { continue }
                found.append((i, name, text))
            }
        }
        return found
    }

    /// Whether an optional path is one the request names, a folder above it, or the named path
    /// with an extension added (`/tmp/a` → `/tmp/a.tar.gz`): not a new name inside it
    /// (`/tmp/repo/app/ca.crt` for a request that names `/tmp/repo/app`).
    static func fits(_ text: String, named: String) -> Bool {
        let trimmed = text.count > 1 && text.hasSuffix("/") ? String(text.dropLast()) : text
        return trimmed == named || named.hasPrefix(trimmed + "/") || (trimmed.hasPrefix(named + ".") && !trimmed.dropFirst(named.count).contains("/"))
    }

    /// Whether a query before step `index` gives what no later step uses: then a made-up content
    /// is where its output belongs, which the unused query's message says; it is not left out.
    static func unusedQuery(before index: Int, in plan: Plan, kinds: [String: SkillDescriptor.Kind]) -> Bool {
        plan.steps[..<index].enumerated().contains { k, step in
            !step.isPlaybook && kinds[step.target] == .query
                && !plan.steps[(k + 1)...].contains { later in later.with.contains { PlanLint.strings(in: $0.value).contains { $0.contains("steps.\(step.id).") } } }
        }
    }

    /// Whether `text` (six characters or more) is part of the clause of another step and not of
    /// step `index`'s own — when the plan has one step per clause, in their order.
    static func belongsToAnother(_ text: String, step index: Int, of plan: Plan, clauses: [String]) -> Bool {
        // (compared without punctuation and spaces: the model writes "客户会议" for “客户会议”)
        func squeezed(_ text: String) -> String {
            String(text.lowercased().unicodeScalars.filter { !CharacterSet.punctuationCharacters.union(.symbols).union(.whitespaces).contains($0) })
        }
        let words = squeezed(text)
        guard clauses.count > 1, clauses.count == plan.steps.count, words.count >= 6 else { return false }
        let said = clauses.map(squeezed)
        // (or holds another clause whole, with the word of order before it: "设好以后往 … 推一条通知")
        return !said[index].contains(words)
            && said.indices.contains { $0 != index && (said[$0].contains(words) || (said[$0].count >= 6 && words.contains(said[$0]))) }
    }

    /// `text` lower-cased without the punctuation and spaces at its ends.
    static func bare(_ text: String) -> String {
        text.lowercased().trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters))
    }

    /// The pieces of `text` a request holds when it gave the text: its words of three or more
    /// letters or digits (lowercased) and each two Chinese characters in a row.
    static func comparable(_ text: String) -> [String] {
        var pieces: [String] = []
        let lowered = text.lowercased()
        for word in lowered.split(whereSeparator: { !($0.isLetter || $0.isNumber) || TextFolding.isCJK($0) }) where word.count >= 3 {
            pieces.append(String(word))
        }
        let characters = Array(lowered)
        for k in characters.indices.dropLast() where TextFolding.isCJK(characters[k]) && TextFolding.isCJK(characters[k + 1]) {
            pieces.append(String(characters[k...k + 1]))
        }
        return pieces
    }
}
