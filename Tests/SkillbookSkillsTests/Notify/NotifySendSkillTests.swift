import Foundation
import SkillbookCore
import SkillbookSkills
import SkillbookTesting
import Testing

/// A harness whose notifications go to `lines` and whose `PATH` is `bin` (empty: no notify-send).
private func withNotify<T>(
    _ body: (Harness, LocalHTTPServer, Recorder<String>, URL) async throws -> T
) async throws -> T {
    let lines = Recorder<String>()
    let bin = FileManager.default.temporaryDirectory
        .appendingPathComponent("skillbook-notify-bin-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: bin) }
    return try await withWeb(configure: { environment in
        environment.notifications = NotificationSink { lines.append($0) }
        environment.executableSearchPath = bin.path
    }) { harness, server in
        try await body(harness, server, lines, bin)
    }
}

/// Writes an executable shell script (the fake notify-send itself; skillbook runs it without a shell).
private func script(_ name: String, in folder: URL, _ text: String) throws {
    let file = folder.appendingPathComponent(name)
    try ("#!/bin/sh\n" + text).write(to: file, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
}

@Suite struct NotifySendSkillTests {
    @Test func writesToTheSink() async throws {
        try await withNotify { notify, _, lines, _ in
            let output = try await notify.run("notify.send", ["message": "Backup finished", "title": "Nightly"])
            #expect(output == ["channels": ["stderr"]])
            _ = try await notify.run("notify.send", ["message": "No title"])
            #expect(lines.values == ["notification: Nightly: Backup finished", "notification: No title"])
        }
    }

    @Test func runsNotifySendWithArgumentsNotAShell() async throws {
        try await withNotify { notify, _, lines, bin in
            let log = bin.appendingPathComponent("argv.txt")
            try script("notify-send", in: bin, "for a in \"$@\"; do printf '%s\\n--end--\\n' \"$a\"; done > '\(log.path)'\n")
            let hostile = "\"; touch '\(bin.path)/pwned' #"
            let message = "-u critical $(touch \(bin.path)/pwned2) `id` \(hostile)"
            let output = try await notify.run("notify.send", ["message": .string(message), "title": "-t"])
            #expect(output == ["channels": ["stderr", "desktop"]])
            let argv = try String(contentsOf: log, encoding: .utf8).components(separatedBy: "\n--end--\n").dropLast()
            #expect(Array(argv) == ["--", "-t", message])
            #expect(!FileManager.default.fileExists(atPath: bin.appendingPathComponent("pwned").path))
            #expect(!FileManager.default.fileExists(atPath: bin.appendingPathComponent("pwned2").path))
            #expect(lines.values == ["notification: -t: \(message)"])

            _ = try await notify.run("notify.send", ["message": "plain"])
            let second = try String(contentsOf: log, encoding: .utf8).components(separatedBy: "\n--end--\n").dropLast()
            #expect(Array(second) == ["--", "Skillbook", "plain"])
        }
    }

    @Test func aFailingDesktopNotificationIsReportedNotFatal() async throws {
        try await withNotify { notify, _, lines, bin in
            try script("notify-send", in: bin, "echo 'cannot connect to the session bus' >&2\nexit 3\n")
            let output = try await notify.run("notify.send", ["message": "hello"])
            #expect(output == ["channels": ["stderr"]])
            #expect(
                lines.values == [
                    "notification: hello",
                    "notification: no desktop notification: \(bin.path)/notify-send exited with status 3: "
                        + "cannot connect to the session bus",
                ])
        }
    }

    @Test func aHangingNotifySendIsStoppedOnCancellation() async throws {
        try await withNotify { notify, _, _, bin in
            try script("notify-send", in: bin, "exec sleep 120\n")
            let skill = try notify.skill("notify.send")
            let context = notify.context
            let start = Date()
            let task = Task { try await skill.run(["message": "x"], context: context) }
            try await Task.sleep(for: .milliseconds(300))
            task.cancel()
            let result = await task.result
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(Date().timeIntervalSince(start) < 60, "well under the two minutes it would hang")
        }
    }

    @Test func desktopCanBeTurnedOffAndNonExecutablesAreIgnored() async throws {
        try await withNotify { notify, _, _, bin in
            let log = bin.appendingPathComponent("ran")
            try script("notify-send", in: bin, "touch '\(log.path)'\n")
            #expect(try await notify.run("notify.send", ["message": "x", "desktop": false]) == ["channels": ["stderr"]])
            #expect(!FileManager.default.fileExists(atPath: log.path))
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: bin.appendingPathComponent("notify-send").path)
            #expect(try await notify.run("notify.send", ["message": "x"]) == ["channels": ["stderr"]])
            #expect(!FileManager.default.fileExists(atPath: log.path))
        }
    }

    @Test func postsJSONToAWebhook() async throws {
        try await withNotify { notify, server, lines, _ in
            server.route("/hooks/T0PSECRET", .status(204))
            let output = try await notify.run(
                "notify.send",
                ["message": "Deploy \"v2\" done ✅\nall green", "title": "CI", "webhook": .string(server.url("/hooks/T0PSECRET"))])
            #expect(output == ["channels": ["stderr", "webhook"], "webhook_status": 204])
            let request = try #require(server.requests.last)
            #expect(request.method == "POST")
            #expect(request.header("content-type") == "application/json")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: String])
            #expect(json == ["title": "CI", "message": "Deploy \"v2\" done ✅\nall green", "text": "CI: Deploy \"v2\" done ✅\nall green"])
            #expect(lines.values.count == 1)

            _ = try await notify.run("notify.send", ["message": "m", "webhook": .string(server.url("/hooks/T0PSECRET"))])
            let untitled = try #require(try JSONSerialization.jsonObject(with: Data(server.requests.last!.body)) as? [String: String])
            #expect(untitled["title"] == "Skillbook")
        }
    }

    @Test func webhookFailuresAreClearAndKeepTheAddressSecret() async throws {
        try await withNotify { notify, server, _, _ in
            server.route("/hooks/T0PSECRET", .status(500, "boom"))
            server.route("/hooks/moved", .redirect(to: "/hooks/T0PSECRET"))
            server.route("/hooks/slow", LocalHTTPServer.Response.status(200).delayed(by: 60))
            let origin = server.baseURL
            await expectFailure("the webhook at \(origin) returned 500 Internal Server Error") {
                _ = try await notify.run("notify.send", ["message": "m", "webhook": .string(server.url("/hooks/T0PSECRET"))])
            }
            await expectFailure("the webhook at \(origin) returned 302 Found") {
                _ = try await notify.run("notify.send", ["message": "m", "webhook": .string(server.url("/hooks/moved"))])
            }
            let port = try closedPort()
            let unreachable = await failure {
                _ = try await notify.run(
                    "notify.send", ["message": "m", "webhook": .string("http://127.0.0.1:\(port)/hooks/T0PSECRET")])
            }
            #expect(unreachable.hasPrefix("the webhook at http://127.0.0.1:\(port) failed: "), "\(unreachable)")
            #expect(!unreachable.contains("T0PSECRET"))
            let refused = await failure {
                _ = try await notify.run("notify.send", ["message": "m", "webhook": "ftp://host/T0PSECRET"])
            }
            #expect(!refused.contains("T0PSECRET"))
            #expect(refused == "the webhook must be an http or https address with a host (ftp: is not allowed)")
        }
    }

    @Test func descriptor() async throws {
        try await withNotify { notify, _, _, _ in
            let descriptor = try notify.skill("notify.send").descriptor
            #expect(descriptor.kind == .action)
            #expect(!descriptor.confirm)
            #expect(!descriptor.reversible)
            #expect(!descriptor.idempotent)
            #expect(descriptor.parameters.property("webhook")?.secret == true)
            #expect(descriptor.parameters.required == ["message"])
        }
    }
}
