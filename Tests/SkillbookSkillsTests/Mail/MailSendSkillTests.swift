import Foundation
import SkillbookCore
import SkillbookTesting
import Testing

/// A real SMTP server on 127.0.0.1: PyPI `aiosmtpd` in `.build/venv` (`make venv`), in the clear or
/// requiring STARTTLS with a throw-away certificate made by `openssl`, with AUTH PLAIN and LOGIN.
/// Each mail it receives is one JSON line in a file.
final class SMTPTestServer {
    static let script = #"""
        import json, signal, socket, ssl, sys
        from aiosmtpd.controller import Controller
        from aiosmtpd.smtp import AuthResult, LoginPassword

        out, mode = sys.argv[1], sys.argv[2]
        last = {}

        class Handler:
            async def handle_DATA(self, server, session, envelope):
                with open(out, "a") as f:
                    f.write(json.dumps({
                        "from": envelope.mail_from, "to": envelope.rcpt_tos,
                        "data": envelope.content.decode("utf-8", "replace").replace("\r\n", "\n"),
                        "tls": session.ssl is not None, "authenticated": bool(session.authenticated),
                        "mechanism": last.get("mechanism"),
                    }) + "\n")
                return "250 OK"

        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = isinstance(auth_data, LoginPassword) and auth_data.login == b"anna" and auth_data.password == b"s3cret pass"
            if ok:
                last["mechanism"] = mechanism
            return AuthResult(success=ok, handled=False)

        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        options = dict(authenticator=authenticator, auth_require_tls=False)
        if mode == "starttls":
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(sys.argv[3], sys.argv[4])
            options.update(tls_context=context, require_starttls=True, auth_require_tls=True)
        controller = Controller(Handler(), hostname="127.0.0.1", port=port, **options)
        controller.start()
        print(port, flush=True)
        signal.sigwait([signal.SIGTERM, signal.SIGINT])
        controller.stop()
        """#

    let directory = TemporaryDirectory(prefix: "skillbook-smtp")
    let process: ChildProgram
    let port: Int
    /// The certificate to trust (STARTTLS mode).
    let certificate: String
    let received: URL

    init(startTLS: Bool) async throws {
        certificate = directory.url.appendingPathComponent("cert.pem").path
        received = directory.url.appendingPathComponent("received.jsonl")
        let python = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            Issue.record("\(python) is missing: run 'make venv' (it installs PyPI aiosmtpd)")
            throw CancellationError()
        }
        let script = directory.url.appendingPathComponent("smtp_server.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        var arguments = [script.path, received.path, startTLS ? "starttls" : "plain"]
        if startTLS {
            let key = directory.url.appendingPathComponent("key.pem").path
            let openssl = try await runProgram(
                URL(fileURLWithPath: "/usr/bin/openssl"),
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                ])
            #expect(openssl.code == 0)
            arguments += [certificate, key]
        }
        let output = OutputFile()
        let process = try ChildProgram(python, arguments, output: .file(output))
        self.process = process
        _ = await eventually(within: 60) { output.text.contains("\n") || !process.isRunning }
        let line = output.text
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.signal(SIGTERM)
            throw SkillError("the SMTP test server did not start: '\(line)'")
        }
        self.port = port
    }

    deinit {
        process.signal(SIGTERM)
        _ = process.waitUntilExit()
    }

    /// The mails received so far.
    func mails() throws -> [[String: Any]] {
        guard let text = try? String(contentsOf: received, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }
}

@Suite struct MailSendSkillTests {
    func parameters(_ server: String, _ extra: ValueObject = [:]) -> Value {
        var object: ValueObject = [
            "server": .string(server), "from": "skillbook@example.org", "to": ["anna@example.org", "ops@example.org"],
            "subject": "nightly failed: Überlauf", "text": "step 'work' failed: disk full\n.\nbye",
        ]
        for (key, value) in extra { object[key] = value }
        return .object(object)
    }

    @Test func sendsWithSTARTTLSAndEachLoginMechanism() async throws {
        let server = try await SMTPTestServer(startTLS: true)
        try await withHarness { harness in
            for mechanism in ["PLAIN", "LOGIN"] {
                let output = try await harness.run(
                    "mail.send",
                    parameters(
                        "smtp://127.0.0.1:\(server.port)",
                        [
                            "username": "anna", "password": "s3cret pass", "auth": .string(mechanism),
                            "ca_file": .string(server.certificate),
                        ]))
                #expect(output.objectValue?["recipients"] == ["anna@example.org", "ops@example.org"])
                let id = try #require(output.objectValue?["message_id"]?.stringValue)
                let mail = try #require(try server.mails().last)
                #expect(mail["tls"] as? Bool == true && mail["authenticated"] as? Bool == true)
                #expect(mail["mechanism"] as? String == mechanism)
                #expect(mail["from"] as? String == "skillbook@example.org")
                #expect(mail["to"] as? [String] == ["anna@example.org", "ops@example.org"])
                let data = try #require(mail["data"] as? String)
                #expect(data.contains("Message-ID: <\(id)>"))
                #expect(data.contains("Subject: =?UTF-8?B?\(Data("nightly failed: Überlauf".utf8).base64EncodedString())?="))
                // An ASCII text goes as is; its line holding only '.' arrives intact (curl stuffs it, the server unstuffs it).
                #expect(data.contains("\nstep 'work' failed: disk full\n.\nbye"))
            }
            #expect(try server.mails().count == 2)
        }
    }

    @Test func aWrongPasswordOrAServerWithoutSTARTTLSFailsClearlyAndSendsNothing() async throws {
        let tls = try await SMTPTestServer(startTLS: true)
        let plain = try await SMTPTestServer(startTLS: false)
        try await withHarness { harness in
            do {
                _ = try await harness.run(
                    "mail.send",
                    parameters(
                        "smtp://127.0.0.1:\(tls.port)",
                        ["username": "anna", "password": "wrong horse", "ca_file": .string(tls.certificate), "timeout": 20]))
                Issue.record("a wrong password was accepted")
            } catch let error as SkillError {
                #expect(error.message == "mail.send failed: 127.0.0.1:\(tls.port) refused the user name or password")
            }
            do {
                _ = try await harness.run("mail.send", parameters("smtp://127.0.0.1:\(plain.port)"))
                Issue.record("a server without STARTTLS was used in the clear")
            } catch let error as SkillError {
                #expect(error.message == "mail.send failed: 127.0.0.1:\(plain.port) does not offer STARTTLS (tls: none sends in the clear, for a local relay)")
            }
            // Untrusted certificate: the system's store does not know the throw-away one.
            do {
                _ = try await harness.run("mail.send", parameters("smtp://127.0.0.1:\(tls.port)"))
                Issue.record("an untrusted certificate was accepted")
            } catch let error as SkillError {
                #expect(error.message.hasPrefix("mail.send failed: the secure connection to 127.0.0.1 could not be established ("))
            }
        }
        #expect(try tls.mails().isEmpty && plain.mails().isEmpty)
    }

    @Test func sendsInTheClearToALocalRelayWhenToldAndEncodesAnUnicodeText() async throws {
        let server = try await SMTPTestServer(startTLS: false)
        try await withHarness { harness in
            _ = try await harness.run(
                "mail.send",
                parameters(
                    "smtp://127.0.0.1:\(server.port)",
                    ["tls": "none", "username": "anna", "password": "s3cret pass", "text": "磁盘已满\n"]))
        }
        let mail = try #require(try server.mails().first)
        #expect(mail["tls"] as? Bool == false && mail["authenticated"] as? Bool == true)
        let data = try #require(mail["data"] as? String)
        #expect(data.contains("Content-Transfer-Encoding: base64"))
        #expect(data.contains(Data("磁盘已满\n".utf8).base64EncodedString()))
    }
}
