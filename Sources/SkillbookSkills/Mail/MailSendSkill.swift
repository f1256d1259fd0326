import Foundation
import SkillbookCore
import SkillbookSystem

/// `mail.send`: one plain-text mail over SMTP, through libcurl: `smtp://HOST:PORT` upgraded with
/// STARTTLS (required unless `tls: none`), or `smtps://` (TLS from the start); AUTH PLAIN or
/// LOGIN with `username` and the secret `password`.
///
/// It leaves the machine and cannot be called back, so it asks before running (in `notify:` the
/// step itself is the confirmation). The password is never shown; messages name only the server.
struct MailSendSkill: Skill {
    let environment: SkillEnvironment

    let descriptor = SkillDescriptor(
        id: "mail.send",
        title: "Send a mail",
        summary: "Sends a plain-text mail over SMTP: server smtp://HOST:PORT (STARTTLS required unless tls is none) "
            + "or smtps://HOST:PORT (TLS from the start), logging in with username and a secret password (AUTH PLAIN "
            + "or LOGIN) when given. Returns { message_id, recipients }. It leaves the machine, so it asks before "
            + "running, and it cannot be undone.",
        examples: [
            "send a mail", "send an email about {subject}", "mail me the result", "email it to {to}", "email the result to {to}",
            "发送邮件", "发邮件", "发邮件给{to}",
        ],
        tags: ["mail", "send", "notify"],
        kind: .action,
        confirm: true,
        parameters: .object(
            [
                "server": .string(
                    "The SMTP server: smtp://HOST:PORT (submission, usually 587, with STARTTLS) or smtps://HOST:PORT (usually 465).",
                    minLength: 1, format: "uri"),
                "from": .string("The sender's address.", minLength: 3, maxLength: 254, format: "email"),
                "to": .array(.string(minLength: 3, maxLength: 254, format: "email"), "The recipients' addresses.", minItems: 1, maxItems: 100),
                "subject": .string("The subject, one line.", minLength: 1, maxLength: 900),
                "text": .string("The text of the mail.", maxLength: 1_000_000),
                "username": .string("The user name to log in with (AUTH PLAIN or LOGIN); none: no login.", minLength: 1),
                "password": .string("The password to log in with. Kept secret: never shown in logs, journals or outputs.", secret: true),
                "auth": .string("The login mechanism; default: the best the server offers.", enum: ["PLAIN", "LOGIN"]),
                "tls": .string(
                    "starttls (the default: upgrade an smtp:// connection, fail when the server cannot) or none (in the clear, for a relay on this machine).",
                    enum: ["starttls", "none"], default: "starttls"),
                "ca_file": .string("A PEM file of certificates to trust besides the system's (a private server).", minLength: 1, format: "path"),
                "timeout": .number("Seconds to wait for the whole exchange.", minimum: 1, maximum: 300, default: 60),
            ],
            required: ["server", "from", "to", "subject", "text"]
        ).with {
            // A login is a user name and a password; a mechanism is a login's.
            $0.dependentRequired = [("username", ["password"]), ("password", ["username"]), ("auth", ["username"])]
        },
        output: .object(
            [
                "message_id": .string("The Message-ID the mail was sent with."),
                "recipients": .array(.string(format: "email"), "The addresses the server accepted it for."),
            ],
            required: ["message_id", "recipients"]),
        timeout: 310)

    func run(_ parameters: ValueObject, context: SkillContext) async throws -> Value {
        let parameters = parameters.applyingDefaults(of: descriptor.parameters)
        let text = { (name: String) in parameters[name]?.stringValue }
        let serverText = text("server") ?? ""
        guard let server = URL(string: serverText), let scheme = server.scheme?.lowercased(), ["smtp", "smtps"].contains(scheme),
            server.host?.isEmpty == false
        else {
            throw SkillError("mail.send 'server' must be smtp://HOST:PORT or smtps://HOST:PORT, got '\(serverText)'", kind: .validation)
        }
        let from = text("from") ?? ""
        let to = parameters["to"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let subject = text("subject") ?? ""
        for (name, value) in [("from", from), ("subject", subject)] + to.map({ ("to", $0) })
        where value.contains(where: { $0 == "\r" || $0 == "\n" }) {
            throw SkillError("mail.send '\(name)' must be one line", kind: .validation)
        }
        let host = server.host ?? "localhost"
        let message = MailMessage(
            from: from, to: to, subject: subject, text: text("text") ?? "", date: Date(),
            messageID: "\(UUID().uuidString.lowercased())@skillbook")
        let sender = CurlSMTP(
            settings: .init(
                server: server, startTLS: text("tls") != "none", username: text("username"), password: text("password"),
                mechanism: text("auth"), caFile: text("ca_file").map { URL(fileURLWithPath: $0, relativeTo: environment.currentDirectory).standardizedFileURL.path },
                timeout: parameters["timeout"]?.doubleValue ?? 60))
        do {
            try await sender.send(message.bytes, from: from, to: to)
        } catch {
            switch error {
            case .cancelled: throw CancellationError()
            case .timedOut: throw SkillError("mail.send to \(host) timed out", kind: .timeout)
            case .unavailable(let reason): throw SkillError("mail.send cannot send: \(reason)", kind: .unavailable)
            case .failed(let reason): throw SkillError("mail.send failed: \(Redactor(secrets: [text("password")].compactMap { $0 }).redact(reason))")
            }
        }
        return ["message_id": .string(message.messageID), "recipients": .array(to.map(Value.string))]
    }
}
