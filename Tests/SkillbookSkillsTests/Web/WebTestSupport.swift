import Foundation
import SkillbookCore
import SkillbookSkills
import SkillbookTesting
import Testing

/// A harness whose environment is adjusted by `configure`, with a local HTTP server running.
func withWeb<T>(
    configure: (inout SkillEnvironment) -> Void = { _ in },
    _ body: (Harness, LocalHTTPServer) async throws -> T
) async throws -> T {
    let temporary = TemporaryDirectory(prefix: "skillbook-web-tests")
    let directory = temporary.url
    defer { withExtendedLifetime(temporary) {} }
    var environment = SkillEnvironment(stateDirectory: directory)
    configure(&environment)
    let registry = try SkillRegistry(BuiltinSkills.all(environment: environment))
    let harness = Harness(directory: directory, environment: environment, registry: registry)
    return try await withLocalHTTPServer { server in try await body(harness, server) }
}

/// The message of the `SkillError` that `body` throws; records an issue when it throws none.
func failure(
    sourceLocation: Testing.SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async -> String {
    do {
        try await body()
        Issue.record("expected an error", sourceLocation: sourceLocation)
    } catch let error as SkillError {
        return error.message
    } catch {
        Issue.record("expected a SkillError, got \(error)", sourceLocation: sourceLocation)
    }
    return ""
}

extension Value {
    /// Every string anywhere inside this value, for "never appears" checks.
    var allText: String {
        switch self {
        case .string(let s): s
        case .array(let items): items.map(\.allText).joined(separator: "\n")
        case .object(let object): object.map { $0.key + "\n" + $0.value.allText }.joined(separator: "\n")
        default: interpolatedText
        }
    }
}
