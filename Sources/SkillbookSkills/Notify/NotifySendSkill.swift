import Foundation
import SkillbookCore

/// `notify.send`: tells the user something — on standard error, as a desktop notification where
/// `notify-send` is installed, and optionally to a webhook.
///
/// `confirm` is false although a webhook leaves the machine: whether one is given is known only
/// from the parameters, and a notification carries the playbook's own message to an address its
/// author wrote (or a planned run showed before running, since model-planned runs confirm every
/// action). The webhook address is `secret` — chat webhooks embed their credential in the address —
/// so messages name only its origin.
struct NotifySendSkill: Skill {
    let environment: SkillEnvironment

    static let webhookTimeout = 15.0
    static let defaultTitle = "Skillbook"

    let descriptor = SkillDescriptor(
        id: "notify.send",
        title: "Send a notification",
        summary: "Notifies the user: writes the message to standard error, shows it as a desktop notification where "
            + "notify-send is installed (desktop: false to skip), and with webhook POSTs JSON { title, message, text } "
            + "to that address, failing when it answers other than 2xx. Returns { channels }, where it went. It "
            + "cannot be undone.",
        examples: [
            "notify me that {message}", "send me a notification saying {message}", "send me a notification",
            "notify me when it is done", "alert me with a message", "post a message to my webhook",
            "通知我{message}", "发个通知说{message}", "发送通知",
        ],
        tags: ["notify", "send"],
        kind: .action,
        parameters: .object(
            [
                "message": .string("What to say.", minLength: 1, maxLength: 10_000),
                "title": .string("A short title (default: Skillbook).", minLength: 1, maxLength: 200),
                "webhook": .string(
                    "An http or https address to POST the notification to as JSON (Slack- and Mattermost-style "
                        + "webhooks read its text). Kept secret: only its host is ever shown.",
                    minLength: 1, format: "uri", secret: true),
                "desktop": .boolean("Also show a desktop notification when notify-send is installed.", default: true),
            ],
            required: ["message"]),
        output: .object(
            [
                "channels": .array(
                    .string(enum: ["stderr", "desktop", "webhook"]), "Where the notification went, in order."),
                "webhook_status": .integer("The webhook's HTTP status, when one was called.", minimum: 200, maximum: 299),
            ],
            required: ["channels"]),
        timeout: 60)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let parameters = parameters.applyingDefaults(of: descriptor.parameters)
        let message = parameters["message"]?.stringValue ?? ""
        let title = parameters["title"]?.stringValue
        var channels: [Value] = []

        environment.notifications.write("notification: " + (title.map { "\($0): " } ?? "") + message)
        channels.append("stderr")

        if parameters["desktop"]?.boolValue ?? true,
            let notifySend = ExecutableSearch.find("notify-send", searchPath: environment.executableSearchPath)
        {
            if let failure = try await DesktopNotification.send(
                title: title ?? Self.defaultTitle, message: message, executable: notifySend)
            {
                environment.notifications.write("notification: no desktop notification: \(failure)")
            } else {
                channels.append("desktop")
            }
        }

        var webhookStatus: Int?
        if let webhook = parameters["webhook"]?.stringValue {
            webhookStatus = try await post(title: title ?? Self.defaultTitle, message: message, to: webhook)
            channels.append("webhook")
        }
        var output: ValueObject = ["channels": .array(channels)]
        if let webhookStatus { output["webhook_status"] = .int(webhookStatus) }
        return .object(output)
    }

    /// POSTs the notification; the status of a 2xx answer, else a failure naming only the host.
    private func post(title: String, message: String, to webhook: String) async throws -> Int {
        let redactor = Redactor(secrets: [webhook])
        guard let url = URL(string: webhook.trimmingCharacters(in: .whitespaces)), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else {
            let scheme = URL(string: webhook)?.scheme.map { " (\($0): is not allowed)" } ?? ""
            throw SkillError("the webhook must be an http or https address with a host\(scheme)")
        }
        let origin = "\(scheme)://\(url.host ?? "")" + (url.port.map { ":\($0)" } ?? "")
        let body: Value = [
            "title": .string(title), "message": .string(message), "text": .string("\(title): \(message)"),
        ]
        let request = HTTPRequest(
            url: url, method: "POST",
            headers: [
                HTTPHeader("Content-Type", "application/json"), HTTPHeader("User-Agent", WebSupport.userAgent),
            ],
            body: Data(JSONText.encode(body).utf8), timeout: Self.webhookTimeout, maxBodyBytes: 64 << 10,
            maxRedirects: 0)
        let response: HTTPResponse
        do {
            response = try await environment.http.send(request)
        } catch let error as HTTPClientError {
            throw SkillError("the webhook at \(origin) \(redactor.redact(error.reason))")
        }
        guard response.isSuccess else {
            throw SkillError("the webhook at \(origin) returned \(response.statusLine)")
        }
        return response.status
    }
}
