import Foundation
import SkillbookConsole
import SkillbookCore
import SkillbookHost

extension Option where Value == String {
    static var listen: Self {
        Self(
            "--listen", value: "ADDR:PORT",
            help: "Where to listen (default 127.0.0.1:8600; a non-loopback address needs --token-file and --public-url).")
    }
    static var publicURL: Self {
        Self(
            "--public-url", value: "URL",
            help: "The URL browsers use, such as https://skillbook.example.org behind a TLS proxy (its Host and Origin are allowed).")
    }
    static var tokenFile: Self {
        Self("--token-file", value: "FILE", help: "Read the login token (32+ characters) from FILE; it then stays valid. Needed off loopback.")
    }
}

extension Option where Value == Bool {
    static var open: Self { Self("--open", help: "Open the console in the default browser (xdg-open).") }
    static var schedules: Self {
        Self("--schedules", help: "Also fire the workspace's schedules in this process, as 'skillbook daemon' would (one per state).")
    }
}

/// `skillbook serve [--listen 127.0.0.1:8600] [--public-url URL] [--open] [--token-file F] [--schedules]`: the web console,
/// and with `--schedules` the daemon's scheduler as a second service of the same group.
enum ServeCommand: Command {
    static let spec = CommandSpec(
        name: "serve", summary: "Serve the web console: runs, playbooks and skills in a browser, until stopped.",
        arguments: "", options: [Option.listen.spec, Option.publicURL.spec, Option.open.spec, Option.tokenFile.spec, Option.schedules.spec] + OperationOptions.all,
        discussion: """
            Prints a URL holding a one-time login token; opening it logs the browser in (an HttpOnly,
            SameSite=Strict cookie named with the port; a session ends after 12 hours unused, or at POST
            /api/v1/logout). Listens on loopback unless --listen names another address, which also needs
            --token-file (a token of 32+ characters that stays valid) and --public-url (the URL browsers use:
            only its Host and Origin, and loopback ones, are accepted); TLS belongs to a reverse proxy in
            front. After 5 failed logins in a minute, logins answer 429 for the rest of it. Runs
            started from the console (its chat's too) are journaled with trigger 'console', and so are the
            resumes and rollbacks it starts (in the run's sessions). SIGTERM or Ctrl-C: no new
            connections, runs started here are interrupted (they roll back what they completed), then it exits 0.
            --schedules also fires the workspace's schedules (trigger 'schedule') with the daemon's rules and its
            lock: refused (exit 2) while a 'skillbook daemon' runs on the same state; one SIGTERM stops both.
            --log-format json writes its log lines as JSON objects; --metrics serves runs, steps, fires and the
            console's HTTP requests for Prometheus on a second address.
            """,
        examples: ["skillbook serve", "skillbook serve --schedules", "skillbook serve --listen 127.0.0.1:9000 --open", "skillbook serve --listen 0.0.0.0:8600 --token-file ~/.skillbook-token --public-url https://skillbook.example.org"])

    /// A step that asks for confirmation waits for an approval (the Confirmations page, `skillbook
    /// approve`): nobody may be on the page when a run started there, or by a schedule, reaches it.
    static let noConfirmer = ConfirmationPolicy.wait

    static func execute(_ arguments: ParsedArguments, _ invocation: Invocation) async throws -> ExitCode {
        let operations = try OperationOptions(arguments, invocation, command: spec.name)
        let log = operations.logger
        var settings = ConsoleSettings()
        if let text = arguments[.listen] {
            guard let (address, port) = ConsoleSettings.parseListen(text) else {
                throw UsageError(message: "--listen expects ADDRESS:PORT such as 127.0.0.1:8600 or [::1]:8600, got '\(text)'", command: spec.name)
            }
            settings.address = address
            settings.port = port
        }
        if let text = arguments[.publicURL] {
            guard let url = PublicURL(text) else {
                throw UsageError(
                    message: "--public-url expects http(s)://HOST[:PORT] with no path, such as https://skillbook.example.org, got '\(text)'",
                    command: spec.name)
            }
            settings.publicURL = url
        }
        if let path = arguments[.tokenFile] {
            let url = HostConfiguration.resolve(path, against: invocation.currentDirectory)
            guard let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) else {
                throw UsageError(message: "cannot read the token file \(path)", command: spec.name)
            }
            let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
            let minimum = ConsoleSettings.minimumTokenLength
            guard token.count >= minimum, !token.contains(where: { $0.isWhitespace || $0 == "&" || $0 == "#" }) else {
                throw UsageError(
                    message: "the token in \(path) must be one word of at least \(minimum) characters (such as the output of 'openssl rand -hex 32')",
                    command: spec.name)
            }
            settings.token = token
            settings.tokenIsReusable = true
        }
        if !ConsoleSettings.isLoopback(settings.address) && (!settings.tokenIsReusable || settings.publicURL == nil) {
            throw UsageError(
                message: "listening on \(settings.address) (not loopback) needs --token-file FILE and --public-url URL (the URL browsers "
                    + "use, such as https://skillbook.example.org); put TLS in a reverse proxy in front",
                command: spec.name)
        }
        let host = try invocation.host(arguments, confirmation: noConfirmer, metrics: operations.metrics)
        let console = invocation.console
        var services: [any Service] = []
        var lock: DaemonLock?
        if arguments[.schedules] {
            do {
                lock = try DaemonLock(stateDirectory: host.configuration.stateDirectory)
            } catch .held(let pid, let file) {
                throw CommandFailure(
                    "another skillbook daemon (pid \(pid)) fires this state's schedules (\(file)); stop it, or serve without --schedules",
                    exitCode: .usage)
            } catch .unavailable(let file, let reason) {
                throw CommandFailure("cannot create \(file): \(reason)", exitCode: .usage)
            }
            services.append(try ScheduleService(host: host, grace: 30, log: log))
            settings.firesSchedules = true
        }
        let open = arguments[.open]
        let once = settings.tokenIsReusable ? "" : "the token works once; "
        let server = ConsoleServer(host: host, settings: settings) { url in
            console.out(url)
            log("console at \(url) (\(once)Ctrl-C stops)")
            if open { openInBrowser(url, log: log) }
        }
        let stopping = services.isEmpty ? "stopping the console" : "stopping the console and the schedules"
        let code = try await invocation.runServices([server as any Service] + services + operations.metricsServices(host: host), grace: 30) { event in
            if case .gracefulShutdown = event { log(stopping) }
        }
        withExtendedLifetime(lock) {}
        return code
    }

    /// Opens `url` with xdg-open; without one, says so in the log (one line, as every event).
    private static func openInBrowser(_ url: String, log: @Sendable (String) -> Void) {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let opener = paths.map({ "\($0)/xdg-open" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            log("browser not opened reason=no xdg-open on PATH: open the URL above yourself")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: opener)
        process.arguments = [url]
        try? process.run()
    }
}
