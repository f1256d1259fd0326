import CCurl
public import Foundation

/// One mail sent with libcurl's SMTP: `smtp://` with STARTTLS required (or none, for a local
/// relay), or `smtps://` (TLS from the start); AUTH PLAIN or LOGIN when a user name is given.
/// Runs on a thread of its own, like `CurlHTTPClient`, through `CurlTransfer` (timeout and
/// cancellation).
public struct CurlSMTP: Sendable {
    public struct Settings: Sendable {
        public var server: URL
        public var startTLS: Bool
        public var username: String?
        public var password: String?
        /// `PLAIN` or `LOGIN`; `nil`: the best the server offers.
        public var mechanism: String?
        /// A PEM file of certificates to trust (besides the system's).
        public var caFile: String?
        public var timeout: Double

        public init(
            server: URL, startTLS: Bool, username: String?, password: String?, mechanism: String?, caFile: String?, timeout: Double
        ) {
            self.server = server
            self.startTLS = startTLS
            self.username = username
            self.password = password
            self.mechanism = mechanism
            self.caFile = caFile
            self.timeout = timeout
        }
    }

    public enum Failure: Error {
        case unavailable(String)
        case failed(String)
        case timedOut
        case cancelled
    }

    public let settings: Settings

    public init(settings: Settings) {
        self.settings = settings
    }

    public func send(_ message: Data, from: String, to recipients: [String]) async throws(Failure) {
        if let problem = skb_curl_load() { throw .unavailable(String(cString: problem)) }
        let transfer = CurlTransfer(cap: 64 << 10)
        let deadline = ContinuousClock.now + .milliseconds(Int64((settings.timeout * 1000).rounded(.up)))
        let settings = self.settings
        let ending = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<CurlTransfer.Ending, Never>) in
                let thread = Thread {
                    continuation.resume(
                        returning: Self.perform(settings, message: message, from: from, to: recipients, with: transfer, until: deadline))
                }
                thread.name = "skillbook-smtp"
                thread.start()
            }
        } onCancel: {
            transfer.cancel()
        }
        switch ending {
        case .completed: return
        case .timedOut: throw .timedOut
        case .cancelled: throw .cancelled
        case .failed(let code): throw .failed(Self.reason(code, server: settings.server))
        }
    }

    /// What is uploaded: the message, handed to curl's read callback piece by piece.
    final class Upload {
        let bytes: Data
        var offset = 0
        init(_ bytes: Data) { self.bytes = bytes }

        func read(into buffer: UnsafeMutablePointer<CChar>, room: Int) -> Int {
            let count = min(room, bytes.count - offset)
            guard count > 0 else { return 0 }
            bytes.withUnsafeBytes { raw in
                UnsafeMutableRawPointer(buffer).copyMemory(from: raw.baseAddress! + offset, byteCount: count)
            }
            offset += count
            return count
        }
    }

    private static func perform(
        _ settings: Settings, message: Data, from: String, to recipients: [String], with transfer: CurlTransfer,
        until deadline: ContinuousClock.Instant
    ) -> CurlTransfer.Ending {
        guard let easy = skb_curl_easy_init() else { return .failed(Int32(SKB_CURLE_SEND_ERROR)) }
        defer { skb_curl_easy_cleanup(easy) }
        var list: OpaquePointer?
        defer { if let list { skb_curl_slist_free_all(list) } }
        for recipient in recipients { list = skb_curl_slist_append(list, "<\(recipient)>") }
        let upload = Upload(message)
        _ = skb_curl_setopt_string(easy, Int32(SKB_CURLOPT_URL), settings.server.absoluteString)
        _ = skb_curl_setopt_long(easy, Int32(SKB_CURLOPT_PROTOCOLS), Int(SKB_CURLPROTO_SMTP_SMTPS))
        _ = skb_curl_setopt_long(easy, Int32(SKB_CURLOPT_NOSIGNAL), 1)
        _ = skb_curl_setopt_long(easy, Int32(SKB_CURLOPT_TIMEOUT_MS), Int((settings.timeout * 1000).rounded(.up)) + 1000)
        let implicitTLS = settings.server.scheme?.lowercased() == "smtps"
        _ = skb_curl_setopt_long(
            easy, Int32(SKB_CURLOPT_USE_SSL), Int(settings.startTLS || implicitTLS ? SKB_CURLUSESSL_ALL : SKB_CURLUSESSL_NONE))
        if let caFile = settings.caFile { _ = skb_curl_setopt_string(easy, Int32(SKB_CURLOPT_CAINFO), caFile) }
        if let username = settings.username {
            _ = skb_curl_setopt_string(easy, Int32(SKB_CURLOPT_USERNAME), username)
            _ = skb_curl_setopt_string(easy, Int32(SKB_CURLOPT_PASSWORD), settings.password ?? "")
            if let mechanism = settings.mechanism {
                _ = skb_curl_setopt_string(easy, Int32(SKB_CURLOPT_LOGIN_OPTIONS), "AUTH=\(mechanism)")
            }
        }
        _ = skb_curl_setopt_string(easy, Int32(SKB_CURLOPT_MAIL_FROM), "<\(from)>")
        _ = skb_curl_setopt_slist(easy, Int32(SKB_CURLOPT_MAIL_RCPT), list)
        _ = skb_curl_setopt_long(easy, Int32(SKB_CURLOPT_UPLOAD), 1)
        _ = skb_curl_setopt_int64(easy, Int32(SKB_CURLOPT_INFILESIZE_LARGE), Int64(message.count))
        let context = Unmanaged.passRetained(upload)
        defer { context.release() }
        _ = skb_curl_setopt_read(easy, { buffer, size, count, context in
            guard let buffer, let context else { return 0 }
            return Unmanaged<Upload>.fromOpaque(context).takeUnretainedValue().read(into: buffer, room: size * count)
        }, context.toOpaque())
        return transfer.run(easy, until: deadline)
    }

    static func reason(_ code: Int32, server: URL) -> String {
        let host = server.host ?? "the server"
        let hostAndPort = host + (server.port.map { ":\($0)" } ?? "")
        switch Int(code) {
        case Int(SKB_CURLE_COULDNT_CONNECT): return "cannot connect to \(hostAndPort) (nothing is listening, or it refused)"
        case Int(SKB_CURLE_COULDNT_RESOLVE_HOST): return "cannot find the host \(host)"
        case Int(SKB_CURLE_LOGIN_DENIED): return "\(hostAndPort) refused the user name or password"
        case Int(SKB_CURLE_USE_SSL_FAILED): return "\(hostAndPort) does not offer STARTTLS (tls: none sends in the clear, for a local relay)"
        case Int(SKB_CURLE_SSL_CONNECT_ERROR), Int(SKB_CURLE_SSL_CERTPROBLEM), Int(SKB_CURLE_PEER_FAILED_VERIFICATION),
            Int(SKB_CURLE_SSL_CACERT_BADFILE):
            return "the secure connection to \(host) could not be established (\(String(cString: skb_curl_strerror(code))))"
        case Int(SKB_CURLE_GOT_NOTHING), Int(SKB_CURLE_SEND_ERROR), Int(SKB_CURLE_RECV_ERROR):
            return "the connection to \(hostAndPort) was lost"
        default: return "\(hostAndPort): \(String(cString: skb_curl_strerror(code)).lowercased())"
        }
    }
}
