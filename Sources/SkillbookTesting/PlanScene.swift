public import Foundation
public import SkillbookAgent
public import SkillbookCore
public import SkillbookSkills
import SkillbookSQLite

/// A scratch world for running agents' plans: the files, notes, reminders, git repository and web
/// pages the plan requests of `Tests/SkillbookAgentTests/Fixtures/plan_requests.json` talk about,
/// each run in a fresh copy. A plan's `/tmp/…` and `~/…` paths are rewritten into the copy and its
/// web addresses to `PlanScene.Pages` on 127.0.0.1, so nothing outside the copy is touched and
/// nothing leaves the machine.
public struct PlanScene: Sendable {
    /// The copy's folder: `tmp/` stands for `/tmp`, `home/` for `~`.
    public let root: URL
    public let state: URL
    public let environment: SkillEnvironment
    public let registry: SkillRegistry
    /// Every `notify.send` message of the run.
    public let notifications: Recorder<String>

    /// The files of every copy, by path under `root`.
    public static let files: [String: String] = [
        "tmp/todo.txt": "buy milk\ncall Anna\nfile the taxes\n",
        "tmp/notes.txt": "Meeting moved to Thursday.\nBring the slides.\n",
        "tmp/meeting.txt": "Kick-off with the design team.\nNext: send the minutes to Li Wei.\n",
        "tmp/contacts.txt": "Anna Schmidt <anna@example.com> +49 30 1234567\nLi Wei <li.wei@example.cn> +86 10 87654321\nBob: bob@mail.example.org, 030 7654321\n",
        "tmp/server.log": "2026-12-01 08:00:01 INFO start from 10.0.0.5\nERROR disk full on /var\n2026-12-01 08:05:12 WARN slow request from 192.168.1.20\nERROR timeout talking to 10.0.0.7\n",
        "tmp/invoice.txt": "Invoice #1042\nDate: 2026-11-28\nTotal: 56.70 EUR\nVAT: 9.06 EUR\n",
        "tmp/report.txt": "Quarterly report\nRevenue up 4%.\n",
        "tmp/notes/today.txt": "Today: review the pull requests.\n",
        "tmp/日记/今天.txt": "今天天气很好。\n",
        "tmp/备份/清单.txt": "照片\n文档\n",
        "tmp/project/README.md": "# Project\n",
        "tmp/project/main.swift": "print(\"hello\")\n",
        "tmp/project.tar.gz": "not really an archive\n",
        "tmp/reports/a.csv": "month,total\nnov,12\n",
        "tmp/reports/b.csv": "month,total\ndec,15\n",
        "tmp/reports/summary.txt": "Two months.\n",
        "tmp/logs/app.log": "app started\n",
        "tmp/logs/db.log": "db started\n",
        "tmp/logs/readme.txt": "logs live here\n",
        "tmp/downloads/a.pdf": "%PDF-1.4 a\n",
        "tmp/downloads/b.jpg": "jpeg b\n",
        "tmp/downloads/c.zip": "zip c\n",
        "tmp/downloads/d.pdf": "%PDF-1.4 d\n",
        "tmp/repo/README.md": "# Repo\n",
        "home/code/app/Package.swift": "// swift-tools-version:6.0\n",
        "home/code/app/main.swift": "print(\"app\")\n",
    ]

    /// The notes of every copy: title, body, tags (oldest first).
    public static let notes: [(String, String, [String])] = [
        ("Standup", "Ship the release on Friday.", ["work"]),
        ("Budget", "Ask finance about Q1.", ["work"]),
        ("Garden", "Plant tulips in spring.", ["ideas"]),
        ("App", "A to-do app that reads mail.", ["ideas"]),
        ("Groceries", "milk, eggs", []),
    ]

    /// The reminders of every copy: title and due time (Europe/Berlin; the bench's clock is
    /// Tuesday 2026-12-01 09:15 there).
    public static let reminders: [(String, String)] = [
        ("Gym", "2026-12-01T18:00:00+01:00"),
        ("Dentist", "2026-12-02T10:00:00+01:00"),
        ("Call the bank", "2026-12-02T16:30:00+01:00"),
        ("Report due", "2026-12-04T15:00:00+01:00"),
        ("Team lunch", "2026-12-11T12:00:00+01:00"),
    ]

    /// Fills `base` with the world (`world/`: the files, `tmp/repo` a git repository) and the
    /// state (`state/`: the notes and reminders), from which `copy(of:skills:)` makes each fresh copy.
    public static func template(at base: URL) async throws {
        let root = base.appendingPathComponent("world")
        let state = base.appendingPathComponent("state")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try gitInit(root.appendingPathComponent("tmp/repo"))
        // The stores are closed when `stores` goes (the template is copied file by file).
        try await seed(BuiltinStores.sqlite(stateDirectory: state))
    }

    static func seed(_ stores: BuiltinStores) async throws {
        _ = try await stores.notes().create(notes.map { NoteDraft(title: $0.0, body: $0.1, tags: $0.2) })
        let reminders = try stores.reminders()
        for (title, due) in Self.reminders {
            _ = try await reminders.create(title: title, due: try Date(due, strategy: .iso8601), notes: "")
        }
    }

    /// A fresh copy of `template`, with the shipped manifest skills of `skills` (the `Skills/`
    /// folder) beside the built-in ones.
    public static func copy(of template: URL, skills: URL) throws -> PlanScene {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("skillbook-plan-scene-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: template, to: base)
        let root = base.appendingPathComponent("world")
        let state = base.appendingPathComponent("state")
        let notifications = Recorder<String>()
        let environment = SkillEnvironment(
            stateDirectory: state, currentDirectory: root, allowedRoots: [root, state],
            notifications: NotificationSink { notifications.append($0) }, executableSearchPath: "",
            stores: .sqlite(stateDirectory: state))
        var registry = try SkillRegistry(BuiltinSkills.all(environment: environment))
        for skill in ManifestLoader().load(directory: skills).skills { try? registry.register(skill) }
        return PlanScene(root: root, state: state, environment: environment, registry: registry, notifications: notifications)
    }

    /// Removes the copy.
    public func remove() {
        try? FileManager.default.removeItem(at: root.deletingLastPathComponent())
    }

    /// `tmp/repo` as a git repository with one commit and one untracked file.
    static func gitInit(_ folder: URL) throws {
        let steps = [
            ["init", "-q"], ["-c", "user.name=Skillbook", "-c", "user.email=bench@example.com", "add", "README.md"],
            ["-c", "user.name=Skillbook", "-c", "user.email=bench@example.com", "commit", "-q", "-m", "start"],
        ]
        for arguments in steps {
            _ = try ChildProgram("/usr/bin/env", ["git"] + arguments, in: folder).waitUntilExit()
        }
        try Data("draft\n".utf8).write(to: folder.appendingPathComponent("draft.txt"))
    }

    /// `plan` with its literal `/tmp/…` and `~/…` paths inside this copy and its http(s) addresses
    /// on `pages` (`https://example.com/news` → `http://127.0.0.1:PORT/example.com/news`).
    public func rewrite(_ plan: Plan, pages: Pages) -> Plan {
        var plan = plan
        for i in plan.steps.indices {
            for (key, value) in plan.steps[i].with { plan.steps[i].with[key] = rewrite(value, pages: pages) }
        }
        return plan
    }

    func rewrite(_ value: Value, pages: Pages) -> Value {
        switch value {
        case .string(let text) where !PlanJudge.isReference(value):
            if text == "/tmp" || text.hasPrefix("/tmp/") { return .string(root.path + text) }
            if text == "~" || text.hasPrefix("~/") { return .string(root.path + "/home" + text.dropFirst()) }
            if let local = pages.local(text) { return .string(local) }
            return value
        case .array(let items): return .array(items.map { rewrite($0, pages: pages) })
        case .object(let fields):
            var rewritten = fields
            for (key, field) in fields { rewritten[key] = rewrite(field, pages: pages) }
            return .object(rewritten)
        default: return value
        }
    }

    /// What the copy holds after a run: every file (a text file's content with the copy's folder
    /// written `ROOT`; an archive by name only), every note and every reminder.
    public func world() async throws -> World {
        var files: [String: String] = [:]
        let prefix = root.path + "/"
        if let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) {
            for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                let path = url.path.hasPrefix(prefix) ? String(url.path.dropFirst(prefix.count)) : url.path
                if path.hasPrefix("tmp/repo/.git/") { continue }
                let data = (try? Data(contentsOf: url)) ?? Data()
                let text = path.hasSuffix(".gz") ? "(archive)" : String(decoding: data, as: UTF8.self)
                files[path] = text.replacingOccurrences(of: root.path, with: "ROOT")
            }
        }
        let notes = try await environment.notesStore().list(tag: nil, limit: 100_000).map { $0.tags.isEmpty ? "(none)" : $0.tags.sorted().joined(separator: ",") }
        let reminders = try await environment.remindersStore().list(dueFrom: nil, dueBefore: nil, includeDone: true, limit: 100_000)
            .map { "due \($0.dueText ?? "never")\($0.done ? ", done" : "")" }
        return World(files: files, notes: notes.sorted(), reminders: reminders.sorted())
    }

    /// A copy's files, notes (their tags: the titles and bodies a reference leaves open are not
    /// compared) and reminders (due time, done) after a run.
    public struct World: Sendable, Equatable {
        public var files: [String: String]
        public var notes: [String]
        public var reminders: [String]
    }

    /// The web pages every copy's plans may read, served on 127.0.0.1 by host and path.
    public final class Pages: Sendable {
        public let server: LocalHTTPServer

        public static let pages: [String: LocalHTTPServer.Response] = [
            "example.com/": .html(page("Example Domain", "An example page.", "This domain is for use in examples.")),
            "example.com/blog": .html(page("The Example Blog", "Posts about examples.", "Today we write about examples.")),
            "example.com/news": .html(page("Example News", "What happened today.", "Rain is expected in Berlin.")),
            "example.com/agenda": .html(page("Team Agenda", "The agenda for Thursday.", "1. Budget 2. Hiring")),
            "example.com/post": .html(page("A Post", "A short post.", "The first paragraph of the post.")),
            "swift.org/": .html(page("Swift.org", "The Swift programming language.", "Swift is a general-purpose language.")),
            "example.org/status.txt": .text("all systems operational\n"),
            "example.com/data.txt": .text("1,2,3\n"),
            "example.com/changelog.txt": .text("v2: faster start\n"),
            "example.com/quotes.txt": .text("Simplicity is prerequisite for reliability.\n"),
            "example.com/data.json": .text("{\"ok\": true}\n", contentType: "application/json"),
        ]

        static func page(_ title: String, _ description: String, _ paragraph: String) -> String {
            "<html lang=\"en\"><head><title>\(title)</title><meta name=\"description\" content=\"\(description)\"></head>"
                + "<body><p>\(paragraph)</p><a href=\"/about\">About</a></body></html>"
        }

        public init() throws {
            server = try LocalHTTPServer(routes: Dictionary(uniqueKeysWithValues: Self.pages.map { ("/" + $0.key, $0.value) }))
        }

        deinit { server.stop() }

        /// An http(s) address on this server (host and path kept as the path), or nil for any other text.
        public func local(_ text: String) -> String? {
            for scheme in ["https://", "http://"] where text.lowercased().hasPrefix(scheme) {
                var rest = String(text.dropFirst(scheme.count))
                if !rest.contains("/") { rest += "/" }
                return server.url("/" + rest)
            }
            return nil
        }
    }
}
