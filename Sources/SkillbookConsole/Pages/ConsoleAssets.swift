/// The files under `/assets/`: a fixed table, so no path can reach anything else.
enum ConsoleAssets {
    struct Asset: Sendable {
        var type: String
        var text: String
    }

    static let files: [String: Asset] = [
        "style.css": Asset(type: "text/css; charset=utf-8", text: StyleSheet.text),
        "app.js": Asset(type: "text/javascript; charset=utf-8", text: AppScript.text),
        "dom.js": Asset(type: "text/javascript; charset=utf-8", text: DOMScript.text),
        "api.js": Asset(type: "text/javascript; charset=utf-8", text: APIScript.text),
        "runs.js": Asset(type: "text/javascript; charset=utf-8", text: RunsScript.text),
        "run.js": Asset(type: "text/javascript; charset=utf-8", text: RunScript.text),
        "playbooks.js": Asset(type: "text/javascript; charset=utf-8", text: PlaybooksScript.text),
        "skills.js": Asset(type: "text/javascript; charset=utf-8", text: SkillsScript.text),
        "schedules.js": Asset(type: "text/javascript; charset=utf-8", text: SchedulesScript.text),
        "confirmations.js": Asset(type: "text/javascript; charset=utf-8", text: ConfirmationsScript.text),
        "chat.js": Asset(type: "text/javascript; charset=utf-8", text: ChatScript.text),
    ]
}
