/// A page of a run's call attempts in order of starting, and where the next page starts (`nil` on
/// the last): what reads a big run without loading it whole (`runs show`, the console's run API).
public struct CallPage: Sendable {
    public var calls: [JournalCall]
    /// Where the page ended (a position of the backend's own: SQLite's `calls.seq`, PostgreSQL's row
    /// id); pass it back as `after`.
    public var next: Int64?

    public init(calls: [JournalCall], next: Int64?) {
        self.calls = calls
        self.next = next
    }
}

extension RunJournal {
    /// How many attempts one page of `forEachCallPage` reads: a few hundred KB decoded.
    public static var callPageSize: Int { 1000 }

    /// Reads a run's call attempts in order of starting, one page at a time (each an indexed range
    /// of the run's calls), and hands each page to `body`: memory holds one page, whatever the run's size.
    public func forEachCallPage(
        of runID: String, pageSize: Int = Self.callPageSize, _ body: ([JournalCall]) async throws -> Void
    ) async throws {
        var after: Int64?
        repeat {
            let page = try await calls(of: runID, after: after, limit: pageSize)
            if !page.calls.isEmpty { try await body(page.calls) }
            after = page.next
        } while after != nil
    }

    /// As `forEachCallPage`, the parameters and outputs as stored (`storedCalls`).
    public func forEachStoredCallPage(
        of runID: String, pageSize: Int = Self.callPageSize, _ body: ([StoredCall]) async throws -> Void
    ) async throws {
        var after: Int64?
        repeat {
            let page = try await storedCalls(of: runID, after: after, limit: pageSize)
            if !page.calls.isEmpty { try await body(page.calls) }
            after = page.next
        } while after != nil
    }
}
