import Foundation

/// An oracle's check: when it fails, the message goes to stderr before the abort (an optimised
/// build drops `precondition`'s message), so libFuzzer's log says what broke.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    FileHandle.standardError.write(Data("fuzz oracle failed: \(message())\n".utf8))
    abort()
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("fuzz oracle failed: \(message)\n".utf8))
    abort()
}
