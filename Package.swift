// swift-tools-version:6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

var package = Package(
    name: "Skillbook",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "skillbook", targets: ["skillbook"]),
        .library(name: "SkillbookCore", targets: ["SkillbookCore"]),
        .library(name: "SkillbookRuntime", targets: ["SkillbookRuntime"]),
        .library(name: "SkillbookHost", targets: ["SkillbookHost"]),
        .library(name: "SkillbookSQL", targets: ["SkillbookSQL"]),
        .library(name: "SkillbookSQLite", targets: ["SkillbookSQLite"]),
        .library(name: "SkillbookPostgres", targets: ["SkillbookPostgres"]),
        .library(name: "SkillbookSkills", targets: ["SkillbookSkills"]),
        .library(name: "SkillbookSystem", targets: ["SkillbookSystem"]),
        .library(name: "SkillbookTesting", targets: ["SkillbookTesting"]),
        .library(name: "SkillbookAgent", targets: ["SkillbookAgent"]),
        .library(name: "SkillbookSchedule", targets: ["SkillbookSchedule"]),
        .library(name: "SkillbookMCP", targets: ["SkillbookMCP"]),
        .library(name: "SkillbookConsole", targets: ["SkillbookConsole"]),
    ],
    targets: [
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .target(name: "SkillbookCore", dependencies: ["CYAML"]),
        // What both SQL backends share: values and rows, the process probe, the run report.
        .target(name: "SkillbookSQL", dependencies: ["SkillbookCore"]),
        // The SQLite state (journal, locks, fires, built-in stores) of one machine.
        .target(name: "SkillbookSQLite", dependencies: ["SkillbookCore", "SkillbookSQL", "CSQLite"]),
        // The PostgreSQL state (journal, leases, locks, fires, built-in stores) through libpq.
        .target(name: "SkillbookPostgres", dependencies: ["SkillbookCore", "SkillbookSQL", "CPostgres"]),
        // libpq through dlopen on the first connection (no link-time dependency); its header comes
        // from libpq-dev (/usr/include/postgresql) at build time.
        .target(name: "CPostgres", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // libcurl through dlopen (no link-time dependency): the HTTP client of Linux.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // GNU libmicrohttpd through dlopen on the first server (no link-time dependency); its header
        // comes from libmicrohttpd-dev at build time.
        .target(name: "CMicroHTTPD", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // fork and exec from one permanent thread, with the parent-death signal set (children die with the runner).
        .target(name: "CSpawn"),
        .target(name: "SkillbookSystem", dependencies: ["SkillbookCore", "CCurl", "CSpawn"]),
        .target(name: "SkillbookSkills", dependencies: ["SkillbookCore", "SkillbookSystem"]),
        .target(name: "SkillbookRuntime", dependencies: ["SkillbookCore"]),
        .target(name: "SkillbookAgent", dependencies: ["SkillbookCore"]),
        .target(name: "SkillbookSchedule", dependencies: ["SkillbookCore"]),
        .target(name: "SkillbookMCP", dependencies: ["SkillbookCore"]),
        // An MCP server over a few in-memory tools, for the protocol and interoperability tests.
        .target(name: "SkillbookMCPTesting", dependencies: ["SkillbookMCP", "SkillbookCore"]),
        .executableTarget(name: "skillbook-mcp-testserver", dependencies: ["SkillbookMCP", "SkillbookMCPTesting"]),
        .target(
            name: "SkillbookHost",
            dependencies: [
                "SkillbookCore", "SkillbookRuntime", "SkillbookSQLite", "SkillbookPostgres", "SkillbookSkills", "SkillbookMCP",
                "SkillbookSchedule", "SkillbookAgent", "SkillbookSystem",
            ]
        ),
        // The web console (`skillbook serve`): HTTP over libmicrohttpd, the JSON API, SSE, the pages.
        .target(name: "SkillbookConsole", dependencies: ["SkillbookHost", "SkillbookAgent", "SkillbookCore", "SkillbookRuntime", "CMicroHTTPD"]),
        .target(
            name: "SkillbookCLI",
            dependencies: ["SkillbookConsole", "SkillbookHost", "SkillbookCore", "SkillbookRuntime", "SkillbookSchedule", "SkillbookAgent"]
        ),
        .executableTarget(name: "skillbook", dependencies: ["SkillbookCLI"]),
        // The floor of `skillbook-bench cold_start`: Foundation, the static Swift runtime, one line.
        .executableTarget(name: "skillbook-floor"),
        // The bench's children's own peak memory (ptrace stops one as it exits; Linux).
        .target(name: "CPeakRSS"),
        .executableTarget(
            name: "skillbook-bench",
            dependencies: [
                "CPeakRSS", "CYAML", "SkillbookCore", "SkillbookAgent", "SkillbookRuntime", "SkillbookSkills", "SkillbookSQLite", "SkillbookSchedule",
                "SkillbookHost", "SkillbookPostgres", "SkillbookSQL", "SkillbookSystem", "SkillbookTesting",
            ]),
        .target(
            name: "SkillbookTesting",
            dependencies: ["SkillbookCore", "SkillbookAgent", "SkillbookRuntime", "SkillbookSQL", "SkillbookSQLite", "SkillbookPostgres", "SkillbookSkills", "SkillbookSystem"]),
        .testTarget(name: "SkillbookCoreTests", dependencies: ["SkillbookCore"], exclude: ["Fixtures"]),
        .testTarget(
            name: "SkillbookAgentTests",
            dependencies: ["SkillbookAgent", "SkillbookCore", "SkillbookSkills", "SkillbookTesting", "SkillbookSystem"], exclude: ["Fixtures"]),
        .testTarget(
            name: "SkillbookMCPTests", dependencies: ["SkillbookMCP", "SkillbookMCPTesting", "SkillbookCore", "SkillbookSkills", "SkillbookSystem"], exclude: ["Fixtures"]),
        .testTarget(
            name: "SkillbookScheduleTests", dependencies: ["SkillbookSchedule", "SkillbookCore", "SkillbookTesting"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "SkillbookSQLiteTests", dependencies: ["SkillbookSQLite", "SkillbookSQL", "SkillbookCore", "SkillbookTesting"]),
        .testTarget(
            name: "SkillbookPostgresTests",
            dependencies: ["SkillbookPostgres", "SkillbookSQLite", "SkillbookSQL", "SkillbookCore", "SkillbookTesting"]),
        .testTarget(
            name: "SkillbookSkillsTests",
            dependencies: ["SkillbookSkills", "SkillbookCore", "SkillbookSQLite", "SkillbookTesting", "SkillbookSystem"]),
        .testTarget(name: "SkillbookSystemTests", dependencies: ["SkillbookSystem", "SkillbookCore", "SkillbookTesting"]),
        .testTarget(
            name: "SkillbookRuntimeTests",
            dependencies: ["SkillbookRuntime", "SkillbookCore", "SkillbookSkills", "SkillbookSQLite", "SkillbookSQL", "SkillbookTesting"]
        ),
        .testTarget(
            name: "SkillbookHostTests",
            dependencies: ["SkillbookHost", "SkillbookAgent", "SkillbookCore", "SkillbookRuntime", "SkillbookSQLite", "SkillbookPostgres", "SkillbookSQL", "SkillbookSkills", "SkillbookSchedule",
                "SkillbookTesting",
            ]),
        .testTarget(
            name: "SkillbookConsoleTests",
            dependencies: ["SkillbookConsole", "SkillbookHost", "SkillbookCore", "SkillbookSkills", "SkillbookTesting", "SkillbookSystem"],
            exclude: ["Browser"]),
        .testTarget(
            name: "SkillbookCLITests", dependencies: ["SkillbookCLI", "SkillbookHost", "SkillbookAgent", "SkillbookPostgres", "SkillbookCore", "SkillbookRuntime", "SkillbookSkills", "SkillbookSystem", "SkillbookSQLite", "SkillbookSQL", "SkillbookTesting"],
            exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
