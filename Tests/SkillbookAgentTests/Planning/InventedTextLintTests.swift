@testable import SkillbookAgent
import SkillbookCore
import Testing

/// Issue 26: an optional text the model made up for an action (reminders.create `notes` nobody
/// asked for) is left out by the checker's fix.
@Suite struct InventedTextLintTests {
    static func errors(_ steps: [Plan.Step], request: String) -> [String] {
        shippedChecker.check(Plan(steps: steps), name: "plan", description: request).diagnostics.filter { $0.severity == .error }.map(\.message)
    }

    static let request = "提醒我下周三上午十点开会，然后通知我提醒已经创建"

    static func plan(notes: String) -> [Plan.Step] {
        [
            Plan.Step(
                id: "s1", target: "reminders.create",
                with: ["title": "开会", "due": "2026-12-09T10:00:00+01:00", "notes": .string(notes)]),
            Plan.Step(id: "s2", target: "notify.send", with: ["message": "提醒已经创建：${{ steps.s1.output.title }}"]),
        ]
    }

    /// A mail.send step through smtp://127.0.0.1:2525 from and to `to`, with the optional parameters `adding`.
    static func mail(to: String, subject: String, text: String, adding optional: ValueObject) -> Plan.Step {
        var with: ValueObject = [
            "server": "smtp://127.0.0.1:2525", "from": .string(to), "to": [.string(to)], "subject": .string(subject), "text": .string(text),
        ]
        for (name, value) in optional { with[name] = value }
        return Plan.Step(id: "s1", target: "mail.send", with: with)
    }

    @Test func anOptionalTextWithNoWordOfTheRequestIsAnErrorTheFixLeavesOut() throws {
        #expect(
            Self.errors(Self.plan(notes: "会议在会议室A"), request: Self.request) == [
                "step 's1' (reminders.create) parameter 'notes' is '会议在会议室A', words the request does not hold; leave 'notes' out unless the request gives it"
            ])
        let fixed = try #require(shippedChecker.fixed(Plan(steps: Self.plan(notes: "会议在会议室A")), description: Self.request))
        #expect(fixed.steps[0].with["notes"] == nil)
        #expect(fixed.steps[0].with["title"] == "开会")
        #expect(shippedChecker.check(fixed, name: "plan", description: Self.request).passes)
    }

    /// A login's user name and mechanism go only with its password, a secret no plan is shown:
    /// mail.send's `username` and `auth` are not offered, and a plan that gives them anyway (the
    /// model filled them with an earlier step's title, or "your-username") has them left out.
    @Test func whatGoesOnlyWithASecretIsLeftOut() throws {
        let offer = PlanOffer(skill: try #require(shippedRegistry.descriptors.first { $0.id == "mail.send" }))
        #expect(offer.parameters.property("username") == nil && offer.parameters.property("auth") == nil)
        #expect(offer.parameters.property("password") == nil && offer.parameters.property("ca_file") != nil)
        let request = "email me@example.com the git status via smtp://127.0.0.1:2525: clean"
        let mail = Self.mail(to: "me@example.com", subject: "Git status", text: "clean", adding: ["username": "your-username", "auth": "PLAIN"])
        let errors = Self.errors([mail], request: request)
        #expect(errors.contains("step 's1' (mail.send) parameter 'username' goes only with 'password', which a plan cannot give; leave 'username' out"))
        #expect(errors.contains("step 's1' (mail.send) parameter 'auth' goes only with 'username', which a plan cannot give; leave 'auth' out"))
        let fixed = try #require(shippedChecker.fixed(Plan(steps: [mail]), description: request))
        #expect(fixed.steps[0].with["username"] == nil && fixed.steps[0].with["auth"] == nil)
        #expect(shippedChecker.check(fixed, name: "plan", description: request).passes)
    }

    @Test func wordsOfTheRequestAReferenceAndAQueryAreLeftAlone() {
        #expect(Self.errors(Self.plan(notes: "十点开会"), request: Self.request).isEmpty)
        let note = Plan.Step(id: "s1", target: "notes.create", with: ["title": "Shopping", "body": "milk and eggs"])
        #expect(Self.errors([note], request: "make a note called Shopping with milk and eggs").isEmpty)
        let titled = Plan.Step(id: "s2", target: "notify.send", with: ["message": "${{ steps.s1.output.title }}", "title": "Git Status"])
        let status = Plan.Step(id: "s1", target: "web.summary", with: ["url": "https://example.org"])
        #expect(Self.errors([status, titled], request: "summarize https://example.org and notify me with the git status").isEmpty)
        // Nothing to compare: one short word, a number.
        let short = Plan.Step(id: "s1", target: "notify.send", with: ["message": "done", "title": "ok"])
        #expect(Self.errors([short], request: "tell me").isEmpty)
    }

    /// mail.send `ca_file: "path_to_ca_file"` for a request that names no such file: left out;
    /// archive.create `directory` inside a folder the request names stays.
    @Test func anOptionalPathTheRequestDoesNotNameIsLeftOut() throws {
        let request = "email ana@example.com the news via smtp://127.0.0.1:2525"
        let mail = Self.mail(to: "ana@example.com", subject: "News", text: "the news", adding: ["ca_file": "/etc/ssl/ca.pem"])
        #expect(
            Self.errors([mail], request: request) == [
                "step 's1' (mail.send) parameter 'ca_file' is '/etc/ssl/ca.pem', words the request does not hold; leave 'ca_file' out unless the request gives it"
            ])
        let fixed = try #require(shippedChecker.fixed(Plan(steps: [mail]), description: request))
        #expect(fixed.steps[0].with["ca_file"] == nil)
        let pack = Plan.Step(
            id: "s1", target: "archive.create", with: ["archive": "/tmp/logs.tar.gz", "paths": ["app"], "directory": "/tmp/logs"])
        #expect(Self.errors([pack], request: "pack /tmp/logs into /tmp/logs.tar.gz").isEmpty)
    }

    /// An optional path that repeats another of the step's paths (the archive as its own
    /// `directory`, a fresh request of 2026-12-04) is left out.
    @Test func anOptionalPathThatRepeatsAnotherIsLeftOut() throws {
        let request = "tar up /tmp/pics/2025 into /tmp/pics-2025.tar.gz and move it to /tmp/usb"
        let pack = Plan.Step(
            id: "s1", target: "archive.create",
            with: ["archive": "/tmp/pics-2025.tar.gz", "paths": ["/tmp/pics/2025"], "directory": "/tmp/pics-2025.tar.gz"])
        #expect(
            Self.errors([pack], request: request) == [
                "step 's1' (archive.create) parameter 'directory' is '/tmp/pics-2025.tar.gz', the value of its 'archive'; leave 'directory' out"
            ])
        let fixed = try #require(shippedChecker.fixed(Plan(steps: [pack]), description: request))
        #expect(fixed.steps[0].with["directory"] == nil && fixed.steps[0].with["archive"] == "/tmp/pics-2025.tar.gz")
    }

    /// A new file inside a named folder is no path the request names (mail.send `ca_file:
    /// "/tmp/repo/app/ca.crt"` for a request naming `/tmp/repo/app`); the folder, one above it, or
    /// the named path with an extension are.
    @Test func aNewNameInsideANamedFolderIsInvented() {
        #expect(!InventedTextLint.fits("/tmp/repo/app/ca.crt", named: "/tmp/repo/app"))
        #expect(InventedTextLint.fits("/tmp/repo/app", named: "/tmp/repo/app"))
        #expect(InventedTextLint.fits("/tmp/repo", named: "/tmp/repo/app"))
        #expect(InventedTextLint.fits("/tmp/repo/", named: "/tmp/repo/app"))
        #expect(InventedTextLint.fits("/tmp/repo/app.tar.gz", named: "/tmp/repo/app"))
        #expect(!InventedTextLint.fits("/tmp/repo/app.d/x", named: "/tmp/repo/app"))
        let request = "查看 /tmp/repo/app 的 git 状态，然后把结果发邮件给 li@example.com，服务器用 smtp://127.0.0.1:2525"
        let mail = Self.mail(to: "li@example.com", subject: "状态", text: "状态", adding: ["ca_file": "/tmp/repo/app/ca.crt"])
        #expect(Self.errors([mail], request: request).contains { $0.contains("parameter 'ca_file' is '/tmp/repo/app/ca.crt'") })
    }

    /// Two optional texts given the same reference (a file's content as mail.send's `username`
    /// and `ca_file`) are both left out.
    @Test func theSameReferenceInTwoOptionalParametersIsLeftOut() throws {
        let request = "读一下 /tmp/notes/todo.txt，把里面的内容发给 li@example.com（smtp://127.0.0.1:2525）"
        let read = Plan.Step(id: "s1", target: "files.read", with: ["path": "/tmp/notes/todo.txt"])
        var mail = Self.mail(to: "li@example.com", subject: "待办", text: "${{ steps.s1.output.content }}", adding: [:])
        mail.id = "s2"
        mail.with["username"] = "${{ steps.s1.output.content }}"
        mail.with["ca_file"] = "${{ steps.s1.output.content }}"
        let fixed = try #require(shippedChecker.fixed(Plan(steps: [read, mail]), description: request))
        #expect(fixed.steps[1].with["username"] == nil && fixed.steps[1].with["ca_file"] == nil)
        #expect(fixed.steps[1].with["text"] == "${{ steps.s1.output.content }}")
    }

    /// A title that repeats the reference of the required message is the plan's choice: the fix
    /// that makes a made-up title the summary's title must not then be undone (the plan was
    /// refused, its fixes undoing each other).
    @Test func anOptionalReferenceBesideTheSameRequiredOneStays() throws {
        let request = "summarize https://swift.org and send me a notification with its title"
        let summary = Plan.Step(id: "s1", target: "web.summary", with: ["url": "https://swift.org"])
        let notify = Plan.Step(
            id: "s2", target: "notify.send", with: ["message": "${{ steps.s1.output.title }}", "title": "Notification from Swift.org"])
        let fixed = try #require(shippedChecker.fixed(Plan(steps: [summary, notify]), description: request))
        #expect(fixed.steps[1].with["title"] == "${{ steps.s1.output.title }}")
        #expect(Self.errors(fixed.steps, request: request).isEmpty)
    }

    /// A clause of the request copied into an optional text of another step's skill.
    @Test func aClauseOfTheRequestAsAnOptionalTextIsLeftOut() throws {
        let request = "后天下午三点提醒我去取快递，并发个通知确认一下"
        let steps = [
            Plan.Step(
                id: "s1", target: "reminders.create",
                with: ["title": "去取快递", "due": "2026-12-03T15:00:00+01:00", "notes": "发个通知确认一下"]),
            Plan.Step(id: "s2", target: "notify.send", with: ["message": "提醒已创建：${{ steps.s1.output.title }}"]),
        ]
        #expect(Self.errors(steps, request: request).contains { $0.hasPrefix("step 's1' (reminders.create) parameter 'notes'") })
        let fixed = try #require(shippedChecker.fixed(Plan(steps: steps), description: request))
        #expect(fixed.steps[0].with["notes"] == nil)
        // The whole request of one clause is no other step's.
        let one = [Plan.Step(id: "s1", target: "notes.create", with: ["title": "Idea", "body": "buy a boat"])]
        #expect(Self.errors(one, request: "buy a boat").isEmpty)
    }

    /// An optional text that is the words of the next step's clause ("…, and jot down a note titled
    /// Dentist with their number 555-0142" as the reminder's `notes`) says what that step does: it
    /// is left out. The same words as the note's own body stay.
    @Test func theWordsOfAnotherStepsClauseAreLeftOut() throws {
        let request = "remind me tomorrow at 9am to call the dentist, and jot down a note titled Dentist with their number 555-0142"
        let remind = Plan.Step(
            id: "s1", target: "reminders.create",
            with: ["title": "call the dentist", "due": "2026-12-02T09:00:00+01:00", "notes": "a note titled Dentist with their number 555-0142"])
        let note = Plan.Step(id: "s2", target: "notes.create", with: ["title": "Dentist", "body": "their number 555-0142"])
        let fixed = try #require(shippedChecker.fixed(Plan(steps: [remind, note]), description: request))
        #expect(fixed.steps[0].with["notes"] == nil)
        #expect(fixed.steps[1].with["body"] == "their number 555-0142")
        #expect(shippedChecker.check(fixed, name: "plan", description: request).passes)
        // (punctuation aside: "叫\"客户会议\",标签 工作" is the clause's "叫“客户会议”，标签 工作")
        let chinese = "下周三下午三点提醒我跟客户开会，顺便建一条笔记叫“客户会议”，标签 工作"
        let meeting = Plan.Step(
            id: "s1", target: "reminders.create",
            with: ["title": "跟客户开会", "due": "2026-12-09T15:00:00+01:00", "notes": "建一条笔记叫\"客户会议\",标签 工作"])
        let card = Plan.Step(id: "s2", target: "notes.create", with: ["title": "客户会议", "tags": ["工作"]])
        let fixedChinese = try #require(shippedChecker.fixed(Plan(steps: [meeting, card]), description: chinese))
        #expect(fixedChinese.steps[0].with["notes"] == nil)
        // (the next clause whole, with its word of order: "设好以后往 URL 推一条通知说一声")
        let chores = "周五晚上七点提醒我去取衣服，设好以后往 http://127.0.0.1:9000/hooks/chores 推一条通知说一声"
        let clothes = Plan.Step(
            id: "s1", target: "reminders.create",
            with: ["title": "去取衣服", "due": "2026-12-04T19:00:00+01:00", "notes": "设好以后往 http://127.0.0.1:9000/hooks/chores 推一条通知说一声"])
        let push = Plan.Step(id: "s2", target: "notify.send", with: ["message": "去取衣服"])
        let fixedChores = try #require(shippedChecker.fixed(Plan(steps: [clothes, push]), description: chores))
        #expect(fixedChores.steps[0].with["notes"] == nil)
    }

    /// An action's optional path given an earlier output that is no path (mail.send `ca_file` the
    /// git status's stderr, a page's description) is left out; an output that is a path stays.
    @Test func anOptionalPathGivenAnOutputThatIsNoPathIsLeftOut() throws {
        let request = "check the git status of /srv/repo and mail it to ops@example.org via smtp://127.0.0.1:2525"
        let status = Plan.Step(id: "s1", target: "git.status", with: ["repository": "/srv/repo"])
        var mail = Self.mail(to: "ops@example.org", subject: "status", text: "${{ steps.s1.output.stdout }}", adding: ["ca_file": "${{ steps.s1.output.stderr }}"])
        mail.id = "s2"
        let errors = Self.errors([status, mail], request: request)
        #expect(errors.contains("step 's2' (mail.send) parameter 'ca_file' is a path, but steps.s1.output.stderr is no path; leave 'ca_file' out"))
        let fixed = try #require(shippedChecker.fixed(Plan(steps: [status, mail]), description: request))
        #expect(fixed.steps[1].with["ca_file"] == nil && fixed.steps[1].with["text"] == "${{ steps.s1.output.stdout }}")
        #expect(shippedChecker.check(fixed, name: "plan", description: request).passes)
        // (what an earlier step gives as a path is one: files.list's `items.*.path`)
        #expect(PlanOffer.pathFields(of: try #require(shippedRegistry.descriptors.first { $0.id == "files.list" }).output).contains("items.*.path"))
        #expect(PathReferenceLint.reference("${{ steps.s1.output.items.*.path }}")! == ("s1", "items.*.path"))
    }

    /// An optional list of empty texts (`undo: [""]`) or one that repeats another list of the step
    /// (`undo` = `argv`: the command again on rollback) is left out.
    @Test func anOptionalListOfNothingOrOfAnotherListIsLeftOut() throws {
        let request = "run make test in /srv/app and notify me with the outcome"
        for undo: Value in [[""], ["make", "test"]] {
            let run = Plan.Step(id: "s1", target: "shell.run", with: ["argv": ["make", "test"], "cwd": "/srv/app", "undo": undo])
            let notify = Plan.Step(id: "s2", target: "notify.send", with: ["message": "${{ steps.s1.output.stdout }}"])
            #expect(Self.errors([run, notify], request: request).contains { $0.contains("parameter 'undo' is") })
            let fixed = try #require(shippedChecker.fixed(Plan(steps: [run, notify]), description: request))
            #expect(fixed.steps[0].with["undo"] == nil && fixed.steps[0].with["argv"] == ["make", "test"])
        }
    }
}
