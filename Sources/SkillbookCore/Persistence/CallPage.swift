/// A page of a run's call attempts in order of starting, and where the next page starts (`nil` on
/// the last): what reads a big run without loading it whole (`runs show`, the console's run API).
/// `Call` is `JournalCall` (values decoded, `CallPage`) or `StoredCall` (as stored, `StoredCallPage`).
public struct JournalCallPage<Call: Sendable>: Sendable {
    public var calls: [Call]
    /// Where the page ended (a position of the backend's own: SQLite's `calls.seq`, PostgreSQL's row
    /// id); pass it back as `after`.
    public var next: Int64?

    public init(calls: [Call], next: Int64?) {
        self.calls = calls
        self.next = next
    }
}

/// A page of call attempts, their values decoded.
public typealias CallPage = JournalCallPage<JournalCall>

extension RunJournal {
    /// How many attempts one page of `forEachCallPage` reads: a few hundred KB decoded.
    public static var callPageSize: Int { 1000 }

    /// Reads a run's call attempts in order of starting, one page at a time (each an indexed range
    /// of the run's calls), and hands each page to `body`: memory holds one page, whatever the run's size.
    public func forEachCallPage(
        of runID: String, pageSize: Int = Self.callPageSize, _ body: ([JournalCall]) async throws -> Void
    ) async throws {
        try await Self.forEachPage(reading: { after in try await calls(of: runID, after: after, limit: pageSize) }, body)
    }

    /// As `forEachCallPage`, the parameters and outputs as stored (`storedCalls`).
    public func forEachStoredCallPage(
        of runID: String, pageSize: Int = Self.callPageSize, _ body: ([StoredCall]) async throws -> Void
    ) async throws {
        try await Self.forEachPage(reading: { after in try await storedCalls(of: runID, after: after, limit: pageSize) }, body)
    }

    /// Reads pages with `read` (given where the last one ended) until one says it is the last.
    private static func forEachPage<Call>(
        reading read: (_ after: Int64?) async throws -> JournalCallPage<Call>, _ body: ([Call]) async throws -> Void
    ) async throws {
        var after: Int64?
        repeat {
            let page = try await read(after)
            if !page.calls.isEmpty { try await body(page.calls) }
            after = page.next
        } while after != nil
    }
}
