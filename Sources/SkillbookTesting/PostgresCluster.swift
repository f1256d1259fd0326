public import Foundation
import Synchronization

/// A throw-away PostgreSQL server for tests: one per test process, started on first use
/// (`PostgresCluster.shared`) and stopped, with its folder removed, when the process exits.
///
/// It runs `initdb` in a fresh folder under the temporary directory, then `pg_ctl start` on a free
/// port of 127.0.0.1 (and a Unix socket in the same folder), with durability off (`fsync`,
/// `synchronous_commit` and `full_page_writes`: a test cluster is never recovered). PostgreSQL
/// refuses to run as root: when the tests run as root, the cluster belongs to the unprivileged
/// `nobody` and every server program runs through `runuser -u nobody --`. Clients connect as the
/// superuser `skillbook` with trust authentication, so no password is involved.
///
/// `makeDatabase()` gives each test its own empty database, so suites run in parallel without
/// seeing each other's rows. A cluster left running by a test process that was killed is stopped
/// by the next one that starts (each folder records the pid of the process that owns it).
///
/// The server programs are found in `$SKILLBOOK_PG_BIN`, else the newest `/usr/lib/postgresql/*/bin`
/// (Debian's `postgresql` package), else on `PATH`. A missing server is a test failure with the
/// command that installs it (`make test` installs it).
public final class PostgresCluster: Sendable {
    public let port: Int
    public let directory: URL
    let bin: URL
    private let counter = Mutex(0)

    /// The cluster of this test process (started on first use); a failure to start is fatal.
    public static let shared: PostgresCluster = {
        do {
            let cluster = try PostgresCluster()
            atexit { PostgresCluster.shared.stop() }
            return cluster
        } catch {
            fatalError("cannot start the test PostgreSQL cluster: \(error)")
        }
    }()

    /// `postgresql://skillbook@127.0.0.1:PORT/DATABASE`.
    public func url(database: String) -> String { "postgresql://skillbook@127.0.0.1:\(port)/\(database)" }

    /// Creates a fresh, empty database and returns its connection string.
    public func makeDatabase() throws -> String {
        let name = counter.withLock { count -> String in
            count += 1
            return "test_\(getpid())_\(count)"
        }
        try run(server: false, "createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "skillbook", name])
        return url(database: name)
    }

    private init() throws {
        bin = try Self.findBin()
        Self.stopAbandoned()
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("skillbook-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        directory = base.resolvingSymlinksInPath()
        try "\(getpid())".write(to: directory.appendingPathComponent("owner"), atomically: true, encoding: .utf8)
        if getuid() == 0 {
            guard let nobody = getpwnam("nobody") else { throw Failure("tests run as root and there is no user 'nobody'") }
            chown(directory.path, nobody.pointee.pw_uid, nobody.pointee.pw_gid)
        }
        port = try Self.freePort()
        let data = directory.appendingPathComponent("data").path
        try run(server: true, "initdb", ["-D", data, "-U", "skillbook", "-A", "trust", "-E", "UTF8", "--no-sync", "--no-instructions"])
        try run(
            server: true, "pg_ctl",
            [
                "-D", data, "-l", directory.appendingPathComponent("server.log").path, "-w", "-t", "30", "-o",
                "-p \(port) -k \(directory.path) -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off "
                    + "-c full_page_writes=off -c max_connections=300 -c shared_buffers=32MB",
                "start",
            ])
    }

    /// Stops the server at once and removes its folder.
    public func stop() {
        try? run(server: true, "pg_ctl", ["-D", directory.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: Programs

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Runs a PostgreSQL program (as `nobody` when `server` and this process is root) and waits.
    private func run(server: Bool, _ program: String, _ arguments: [String]) throws {
        try Self.run(bin.appendingPathComponent(program).path, arguments, asNobody: server && getuid() == 0)
    }

    /// Spawns `program` and waits with `waitpid`, output to a file (not a pipe: the server that
    /// `pg_ctl start` leaves running inherits the descriptors, so a pipe would never end; and
    /// Foundation's `Process` did not see `runuser` exit here while that server lived on).
    private static func run(_ program: String, _ arguments: [String], asNobody: Bool) throws {
        let argv = asNobody ? ["/usr/sbin/runuser", "-u", "nobody", "--", program] + arguments : [program] + arguments
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("skillbook-pg-output-\(UUID().uuidString)").path
        defer { unlink(log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of this process's: the server `pg_ctl start` leaves running lives as long
        // as the tests, and a pipe's write end it inherited from a test running at that moment
        // would keep that pipe from ever reaching end-of-file (the suite then waited forever).
        guard let closeFrom = addCloseFrom, closeFrom(&actions, 3) == 0 else {
            throw Failure("cannot start \(argv[0]): this C library cannot close inherited files (glibc 2.34+ can)")
        }
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, &cArguments, environ)
        guard spawned == 0 else { throw Failure("cannot start \(argv[0]): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exited = (status & 0x7f) == 0
        let code = (status >> 8) & 0xff
        guard exited && code == 0 else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw Failure(
                "\((program as NSString).lastPathComponent) \(arguments.joined(separator: " ")) failed "
                    + "(status \(status)): \(text)")
        }
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), looked up at run time.
    private static let addCloseFrom: AddCloseFrom? = {
        guard let address = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(address, to: AddCloseFrom.self)
    }()

    private static func findBin() throws -> URL {
        let manager = FileManager.default
        if let given = ProcessInfo.processInfo.environment["SKILLBOOK_PG_BIN"], !given.isEmpty {
            return URL(fileURLWithPath: given)
        }
        let root = "/usr/lib/postgresql"
        let versions = ((try? manager.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        if let newest = versions.last, manager.isExecutableFile(atPath: "\(root)/\(newest)/bin/initdb") {
            return URL(fileURLWithPath: "\(root)/\(newest)/bin")
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        where manager.isExecutableFile(atPath: "\(folder)/initdb") {
            return URL(fileURLWithPath: String(folder))
        }
        throw Failure("no PostgreSQL server programs (initdb, pg_ctl) found; install them: sudo apt-get install -y postgresql")
    }

    /// Stops the clusters of test processes that are gone (killed before their exit handler ran).
    private static func stopAbandoned() {
        let temporary = FileManager.default.temporaryDirectory
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix("skillbook-pg-") {
            let folder = temporary.appendingPathComponent(name)
            guard let text = try? String(contentsOf: folder.appendingPathComponent("owner"), encoding: .utf8),
                let owner = Int32(text), kill(owner, 0) != 0, errno == ESRCH, let bin = try? findBin()
            else { continue }
            try? run(
                bin.appendingPathComponent("pg_ctl").path, ["-D", folder.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop"],
                asNobody: getuid() == 0)
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// A port of 127.0.0.1 nobody listens on now (the kernel's choice for port 0).
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket() failed: \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw Failure("bind() failed: \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw Failure("getsockname() failed: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
