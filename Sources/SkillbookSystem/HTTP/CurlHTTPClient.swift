import CCurl
import Foundation
public import SkillbookCore

/// The `HTTPClient` of Linux (`SystemHTTPClient` there), on libcurl loaded with `dlopen` when the
/// first request is sent: a process that sends none (`--version`, `validate`, a run with no web
/// step) maps neither libcurl nor the libraries it brings.
///
/// Redirects are never followed by curl (`CURLOPT_FOLLOWLOCATION` stays off); `HTTPRedirects`
/// applies the port's rules, hop by hop. Each hop is a fresh handle (no cookies, no connection
/// reuse across hops), restricted to http and https. When libcurl is missing, every request fails
/// with a transport error that says so.
public struct CurlHTTPClient: HTTPClient {
    public init() {}

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        if let problem = skb_curl_load() { throw HTTPRedirects.failed(request, String(cString: problem)) }
        return try await HTTPRedirects.send(request) { hop, remaining in
            try await exchange(hop, timeout: remaining, original: request)
        }
    }

    /// One request and its response, without following redirects.
    private func exchange(_ request: HTTPRequest, timeout: Double, original: HTTPRequest) async throws -> HTTPResponse {
        let transfer = CurlTransfer(cap: request.maxBodyBytes)
        let deadline = ContinuousClock.now + .milliseconds(Int64((timeout * 1000).rounded(.up)))
        let ending = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<CurlTransfer.Ending, Never>) in
                let thread = Thread {
                    continuation.resume(returning: Self.perform(request, timeout: timeout, with: transfer, until: deadline))
                }
                thread.name = "skillbook-http"
                thread.start()
            }
        } onCancel: {
            transfer.cancel()
        }
        switch ending {
        case .completed(let status, let fields, let body, let truncated):
            var joined: [String: String] = [:]
            for (name, value) in fields { joined[name] = joined[name].map { "\($0), \(value)" } ?? value }
            let headers = joined.map { HTTPHeader($0.key, $0.value) }.sorted { $0.name < $1.name }
            return HTTPResponse(status: status, headers: headers, body: body, truncated: truncated, url: request.url)
        case .timedOut:
            throw HTTPRedirects.timedOut(original)
        case .cancelled:
            throw CancellationError()
        case .failed(let code):
            throw HTTPRedirects.failed(original, Self.reason(code, url: request.url))
        }
    }

    /// Configures a handle for `request` and runs it on the calling thread.
    private static func perform(
        _ request: HTTPRequest, timeout: Double, with transfer: CurlTransfer, until deadline: ContinuousClock.Instant
    ) -> CurlTransfer.Ending {
        guard let easy = skb_curl_easy_init() else { return .failed(Int32(SKB_CURLE_SEND_ERROR)) }
        defer { skb_curl_easy_cleanup(easy) }
        var fields: OpaquePointer?
        defer { if let fields { skb_curl_slist_free_all(fields) } }
        // curl asks `Expect: 100-continue` before a large body; an empty `Expect:` turns that off.
        var lines = request.headers.map { $0.value.isEmpty ? "\($0.name);" : "\($0.name): \($0.value)" }
        if request.header("expect") == nil { lines.append("Expect:") }
        for line in lines { fields = skb_curl_slist_append(fields, line) }
        _ = skb_curl_setopt_string(easy, Int32(SKB_CURLOPT_URL), request.url.absoluteString)
        _ = skb_curl_setopt_long(easy, Int32(SKB_CURLOPT_PROTOCOLS), Int(SKB_CURLPROTO_HTTP_HTTPS))
        _ = skb_curl_setopt_long(easy, Int32(SKB_CURLOPT_FOLLOWLOCATION), 0)
        _ = skb_curl_setopt_long(easy, Int32(SKB_CURLOPT_NOSIGNAL), 1)
        // The deadline of `CurlTransfer.run` enforces the timeout; curl's own only backs it up.
        _ = skb_curl_setopt_long(easy, Int32(SKB_CURLOPT_TIMEOUT_MS), Int((timeout * 1000).rounded(.up)) + 1000)
        _ = skb_curl_setopt_headers(easy, fields)
        if request.method == "HEAD" {
            _ = skb_curl_setopt_long(easy, Int32(SKB_CURLOPT_NOBODY), 1)
        } else {
            let body = request.body ?? (["POST", "PUT", "PATCH"].contains(request.method) ? Data() : nil)
            if let body {
                _ = skb_curl_setopt_int64(easy, Int32(SKB_CURLOPT_POSTFIELDSIZE_LARGE), Int64(body.count))
                // COPYPOSTFIELDS copies the bytes (a non-null pointer is needed even when empty).
                if body.isEmpty {
                    _ = skb_curl_setopt_string(easy, Int32(SKB_CURLOPT_COPYPOSTFIELDS), "")
                } else {
                    _ = body.withUnsafeBytes { bytes in
                        skb_curl_setopt_string(
                            easy, Int32(SKB_CURLOPT_COPYPOSTFIELDS), bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
                    }
                }
            }
            if request.method != "GET" || body != nil {
                _ = skb_curl_setopt_string(easy, Int32(SKB_CURLOPT_CUSTOMREQUEST), request.method)
            }
        }
        return transfer.run(easy, until: deadline)
    }

    /// What a libcurl error code means for `url`, in the words of the port's messages.
    static func reason(_ code: Int32, url: URL) -> String {
        let host = url.host ?? "the server"
        let hostAndPort = HTTPRedirects.hostAndPort(url)
        switch Int(code) {
        case Int(SKB_CURLE_COULDNT_CONNECT): return "cannot connect to \(hostAndPort) (nothing is listening, or it refused)"
        case Int(SKB_CURLE_COULDNT_RESOLVE_HOST): return "cannot find the host \(host)"
        case Int(SKB_CURLE_COULDNT_RESOLVE_PROXY): return "cannot find the proxy"
        case Int(SKB_CURLE_GOT_NOTHING), Int(SKB_CURLE_SEND_ERROR), Int(SKB_CURLE_RECV_ERROR):
            return "the connection to \(hostAndPort) was lost"
        case Int(SKB_CURLE_SSL_CONNECT_ERROR), Int(SKB_CURLE_SSL_CERTPROBLEM), Int(SKB_CURLE_PEER_FAILED_VERIFICATION),
            Int(SKB_CURLE_SSL_CACERT_BADFILE):
            return "the secure connection to \(host) could not be established (\(String(cString: skb_curl_strerror(code))))"
        case Int(SKB_CURLE_WEIRD_SERVER_REPLY): return "\(hostAndPort) sent an invalid HTTP response"
        case Int(SKB_CURLE_UNSUPPORTED_PROTOCOL), Int(SKB_CURLE_URL_MALFORMAT): return "the address is not supported"
        default: return String(cString: skb_curl_strerror(code)).lowercased()
        }
    }
}

extension CurlHTTPClient {
    /// Why libcurl cannot be used (not installed, not initialised), or `nil` when it loads; loading
    /// it here is what the first request would do anyway (`skillbook doctor` asks).
    public static var libraryProblem: String? {
        skb_curl_load().map { String(cString: $0) }
    }
}
