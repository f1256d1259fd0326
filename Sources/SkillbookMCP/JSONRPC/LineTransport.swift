/// Newline-delimited messages both ways: what JSON-RPC runs over (stdio of this process, pipes,
/// or a child process started through the `ProcessRunning` port).
///
/// A conformer must deliver each incoming line without its line break through `lines` (read
/// from one task only) and finish it when the input ends; send lines whole and in the order of
/// the `send` calls; and, after `closeOutput`, let the peer read to the end of what was sent
/// and then see the end of its input.
public protocol LineTransport: Sendable {
    var lines: AsyncStream<String> { get }
    /// Starts delivering `lines`; later calls do nothing.
    func start()
    /// Sends (or queues) one line; `false` once the output is closed or the peer is gone.
    @discardableResult
    func send(_ line: String) -> Bool
    func closeOutput()
}

extension LineChannel: LineTransport {}
