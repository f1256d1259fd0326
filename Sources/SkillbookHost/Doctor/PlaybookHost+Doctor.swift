import Foundation
public import SkillbookCore
import SkillbookPostgres
import SkillbookSQLite
import SkillbookSystem

extension PlaybookHost {
    /// The checks of `skillbook doctor` a host can make, in the order they print: skills, playbooks
    /// and schedules, each MCP server (`mcp:PREFIX`), the state, the daemon's lock, the model, the libraries loaded on first use,
    /// the allowed paths, the time zone. Each says what it found and, when it is not fine, how to
    /// fix it. Opening the state brings its schema up to date, as any command would. `database` is
    /// the connection string of a PostgreSQL state (the `--state` or `SKILLBOOK_STATE` the
    /// configuration was made from), `nil` for the SQLite state of the state directory.
    public func doctorChecks(database: String? = nil, http: (any HTTPClient)? = nil) async -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        let registry: SkillRegistry?
        do {
            let loaded = try await loadRegistryListingServers()
            registry = loaded.registry
            let warnings = loaded.warnings.count + loaded.serversWithoutSkills.count
            let manifests = configuration.skillDirectories.map(displayPath).joined(separator: ", ")
            checks.append(
                DoctorCheck(
                    "skills", warnings == 0 ? .ok : .warning,
                    "\(loaded.registry.descriptors.count) skills" + (manifests.isEmpty ? "" : " (manifests from \(manifests))")
                        + (warnings == 0 ? "" : ", \(warnings) warning\(warnings == 1 ? "" : "s")"),
                    fix: warnings == 0 ? nil : "run 'skillbook skills' to see the warnings"))
        } catch {
            registry = nil
            checks.append(DoctorCheck("skills", .failed, Self.firstLine(of: error), fix: "run 'skillbook validate' to see every error in the skill manifests"))
        }
        if let registry { checks += playbookChecks(registry) }
        checks += await mcpServerChecks()
        checks.append(stateCheck(database: database))
        checks.append(await journalCheck())
        checks.append(daemonCheck())
        checks.append(await modelCheck(http: http ?? SystemHTTPClient()))
        checks.append(libraryCheck("libcurl", problem: CurlHTTPClient.libraryProblem, neededBy: "web skills and the model", needed: true))
        let postgres = configuration.persistence != nil
        checks.append(libraryCheck("libpq", problem: PostgresState.libraryProblem, neededBy: "a PostgreSQL state", needed: postgres))
        checks.append(allowedPathsCheck())
        checks.append(timeZoneCheck())
        return checks
    }

    private func playbookChecks(_ registry: SkillRegistry) -> [DoctorCheck] {
        let folder = configuration.playbooksDirectory
        guard HostConfiguration.isDirectory(folder) else {
            return [
                DoctorCheck(
                    "playbooks", .failed, "no playbooks folder at \(displayPath(folder))",
                    fix: "create it with a first playbook: 'skillbook new hello'")
            ]
        }
        var broken: [String] = []
        var scheduled = 0
        var entries = 0
        let files = playbookFiles()
        for url in files {
            do throws(HostError) {
                let file = try loadPlaybook(at: url, registry: registry)
                guard let playbook = file.playbook else {
                    broken.append(file.displayName)
                    continue
                }
                if !playbook.schedule.isEmpty {
                    scheduled += 1
                    entries += playbook.schedule.count
                }
            } catch {
                broken.append(displayPath(url))
            }
        }
        let playbooks =
            broken.isEmpty
            ? DoctorCheck("playbooks", .ok, "\(files.count) playbook\(files.count == 1 ? "" : "s") in \(displayPath(folder)), all valid")
            : DoctorCheck(
                "playbooks", .failed, "\(broken.count) of \(files.count) playbooks have errors: \(broken.joined(separator: ", "))",
                fix: "run 'skillbook validate' to see each error at its file:line:column")
        let schedules = DoctorCheck(
            "schedules", .ok,
            scheduled == 0
                ? "no playbook has a schedule"
                : "\(entries) schedule entr\(entries == 1 ? "y" : "ies") in \(scheduled) playbook\(scheduled == 1 ? "" : "s") (see 'skillbook schedule')")
        return [playbooks, schedules]
    }

    private func stateCheck(database: String?) -> DoctorCheck {
        let fix = "pass --state DIR|URL (or set SKILLBOOK_STATE) to use another state"
        do {
            let version: (stored: Int, current: Int)
            let place: String
            if let database, configuration.persistence != nil {
                version = try PostgresState.schemaVersion(database)
                place = "PostgreSQL"
            } else {
                version = try SQLiteState.schemaVersion(stateDirectory: configuration.stateDirectory)
                place = "SQLite at " + displayPath(configuration.stateDirectory.appendingPathComponent("skillbook.sqlite"))
            }
            guard version.stored == version.current else {
                return DoctorCheck(
                    "state", .failed, "\(place): schema version \(version.stored), this skillbook writes \(version.current)",
                    fix: "use the skillbook that wrote this state, or another --state")
            }
            return DoctorCheck("state", .ok, "\(place): writable, schema version \(version.current) (current)")
        } catch {
            return DoctorCheck("state", .failed, Self.firstLine(of: error), fix: fix)
        }
    }

    private func journalCheck() async -> DoctorCheck {
        do {
            let journal = try openJournal()
            // Two small reads, however long the history (listing every run took 0.5 s at 100,000 runs).
            let count = try await journal.runCount()
            var detail = "\(DigitGrouping.grouped(count)) run\(count == 1 ? "" : "s")"
            if configuration.persistence == nil {
                let file = configuration.stateDirectory.appendingPathComponent("skillbook.sqlite")
                let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
                detail += ", \(Self.megabytes(size)) in \(displayPath(file))"
            }
            if let oldest = try await journal.oldestRunStart() {
                detail += ", oldest \(ISO8601DateFormatter().string(from: oldest))"
            }
            return DoctorCheck("journal", .ok, detail)
        } catch {
            return DoctorCheck("journal", .failed, Self.firstLine(of: error), fix: "see the 'state' check")
        }
    }

    private func daemonCheck() -> DoctorCheck {
        let file = displayPath(configuration.stateDirectory.appendingPathComponent("daemon.pid"))
        guard let pid = DaemonLock.holder(stateDirectory: configuration.stateDirectory) else {
            return DoctorCheck("daemon", .ok, "no daemon holds \(file) (schedules fire only while 'skillbook daemon' runs)")
        }
        return DoctorCheck("daemon", .ok, "a daemon (pid \(pid)) holds \(file)")
    }

    private func libraryCheck(_ name: String, problem: String?, neededBy: String, needed: Bool) -> DoctorCheck {
        guard let problem else { return DoctorCheck(name, .ok, "loads (used by \(neededBy))") }
        let package = name == "libpq" ? "libpq5" : "libcurl4"
        return DoctorCheck(name, needed ? .failed : .warning, problem, fix: "install it: sudo apt-get install \(package)")
    }

    private func allowedPathsCheck() -> DoctorCheck {
        let missing = configuration.allowedPaths.filter { !HostConfiguration.isDirectory($0) }
        guard missing.isEmpty else {
            return DoctorCheck(
                "allowed-paths", .failed, "not a folder: \(missing.map(displayPath).joined(separator: ", "))",
                fix: "create it, or remove it from allow_paths in skillbook.yaml (or --allow-path)")
        }
        let count = configuration.allowedPaths.count
        return DoctorCheck(
            "allowed-paths", .ok,
            count == 0 ? "file skills may use the current folder and the state folder" : "\(count) more folder\(count == 1 ? "" : "s"), each present")
    }

    private func timeZoneCheck() -> DoctorCheck {
        let zone = configuration.timeZone
        let now = configuration.clock.now()
        let seconds = zone.secondsFromGMT(for: now)
        let offset = String(format: "%@%02d:%02d", seconds < 0 ? "-" : "+", abs(seconds) / 3600, abs(seconds) % 3600 / 60)
        if let tz = configuration.environment["TZ"], !tz.isEmpty, TimeZone(identifier: tz) == nil {
            return DoctorCheck(
                "time-zone", .warning, "TZ='\(tz)' is not a zone; using \(zone.identifier) (UTC\(offset))",
                fix: "set TZ to a zone name such as Europe/Berlin, or unset it")
        }
        return DoctorCheck("time-zone", .ok, "\(zone.identifier) (UTC\(offset))")
    }

    /// The first line of what `error` says: a store's or journal's own message, not the host
    /// error's case around it (`store(state database … )`).
    static func firstLine(of error: any Error) -> String {
        let text: String
        switch error {
        case HostError.store(let failure): text = failure.message
        case HostError.journal(let journal): text = journal.message
        case HostError.failed(let message): text = message
        default: text = "\(error)"
        }
        return String(text.split(whereSeparator: \.isNewline).first ?? "")
    }

    static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
