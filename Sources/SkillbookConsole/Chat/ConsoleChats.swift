import Foundation
import SkillbookCore
import SkillbookHost

/// How much the console's chats may hold.
enum ChatLimits {
    /// Chats kept (one per browser session): a new one ends the least recently used idle chat.
    static let chats = 32
    /// Messages in one chat; past them, a new chat must be started.
    static let messages = 200
    /// Characters in one message.
    static let messageLength = Limits.chatMessageCharacters
}

/// The console's chats, one per browser session, within `ChatLimits`.
@MainActor final class ConsoleChats {
    static let maxChats = ChatLimits.chats

    private var chats: [String: ConsoleChat] = [:]

    nonisolated init() {}

    /// The chat of session `key`, if it has one.
    func existing(_ key: String) -> ConsoleChat? {
        guard let chat = chats[key] else { return nil }
        chat.lastUsed = .now
        return chat
    }

    /// The chat of session `key`, begun with `make` when it has none; `nil` when every chat kept is
    /// working and none can make room.
    func chat(_ key: String, make: () async throws(HostError) -> ConsoleChat) async throws(HostError) -> ConsoleChat? {
        if let chat = existing(key) { return chat }
        let chat = try await make()
        if let found = chats[key] { return found }
        if chats.count >= Self.maxChats {
            guard let oldest = chats.filter({ !$0.value.isBusy }).min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key else {
                return nil
            }
            chats[oldest] = nil
        }
        chats[key] = chat
        return chat
    }

    /// Ends session `key`'s chat (its run, if one goes on, is interrupted).
    func end(_ key: String) async {
        guard let chat = chats.removeValue(forKey: key) else { return }
        await chat.interrupt()
    }

    /// Interrupts the work of every chat (runs roll back what they completed) and waits for it.
    func interruptAll() async {
        for chat in chats.values { await chat.interrupt() }
    }
}
