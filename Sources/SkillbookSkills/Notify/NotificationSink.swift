import Foundation

/// Where `notify.send` writes its line for people: standard error, or a test's recorder.
public struct NotificationSink: Sendable {
    /// Writes one notification as a line of text (without its newline).
    public var write: @Sendable (_ line: String) -> Void

    public init(write: @escaping @Sendable (_ line: String) -> Void) {
        self.write = write
    }

    /// Standard error, one line each.
    public static let standardError = NotificationSink { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
