import SkillbookCore

/// Newline-delimited messages both ways: what JSON-RPC runs over (stdio of this process, pipes,
/// or a child process started through the `ProcessRunning` port).
///
/// A conformer must deliver each incoming line without its line break through `lines` (read
/// from one task only) and finish it when the input ends; send lines whole and in the order of
/// the `send` calls; and, after `closeOutput`, let the peer read to the end of what was sent
/// and then see the end of its input. A line longer than `lineLimit` bytes stands for one that
/// was cut (its rest discarded by the transport): the connection answers it with a parse error.
public protocol LineTransport: Sendable {
    var lines: AsyncStream<String> { get }
    /// Starts delivering `lines`; later calls do nothing.
    func start()
    /// Sends (or queues) one line; `false` once the output is closed or the peer is gone.
    @discardableResult
    func send(_ line: String) -> Bool
    func closeOutput()
    /// The longest line, in UTF-8 bytes, the transport delivers whole.
    var lineLimit: Int { get }
}

extension LineTransport {
    public var lineLimit: Int { Limits.mcpLineBytes }
}

extension LineChannel: LineTransport {}
