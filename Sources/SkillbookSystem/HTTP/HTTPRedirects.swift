package import Foundation
import SkillbookCore

/// The redirect rules of `HTTPClient`, applied by the real clients themselves (their transport
/// never follows a redirect): count, schemes, GET after a 303 or a POST's 301/302, and dropping
/// credentials across origins, the same with libcurl and URLSession.
package enum HTTPRedirects {
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Sends `request`, following its redirects; `exchange` makes one hop (no redirects) within the
    /// seconds it is given, which are what is left of `request.timeout`.
    static func send(
        _ request: HTTPRequest, exchange: (_ hop: HTTPRequest, _ timeout: Double) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        let clock = ContinuousClock()
        let start = clock.now
        var hop = request
        var redirects = 0
        while true {
            try Task.checkCancellation()
            let remaining = request.timeout - (clock.now - start).seconds
            guard remaining > 0 else { throw timedOut(request) }
            let response = try await exchange(hop, remaining)
            guard request.maxRedirects > 0, statuses.contains(response.status),
                let location = response.header("location")?.trimmingCharacters(in: .whitespaces), !location.isEmpty
            else { return response }
            guard redirects < request.maxRedirects else {
                throw HTTPClientError(
                    .tooManyRedirects, subject: describe(request),
                    reason: "was redirected more than \(request.maxRedirects) times (the last time to \(location))")
            }
            guard let next = resolve(location, against: hop.url), ["http", "https"].contains(next.scheme?.lowercased())
            else {
                throw HTTPClientError(
                    .unsupportedRedirect, subject: describe(request),
                    reason: "was redirected to '\(location)', which is not an http or https address")
            }
            redirects += 1
            let becomesGet =
                (response.status == 303 && hop.method != "HEAD")
                || ([301, 302].contains(response.status) && hop.method == "POST")
            if becomesGet {
                hop.method = "GET"
                hop.body = nil
                hop.headers.removeAll { ["content-type", "content-length"].contains($0.name.lowercased()) }
            }
            if !next.sameOrigin(as: hop.url) {
                hop.headers.removeAll { ["authorization", "cookie", "proxy-authorization"].contains($0.name.lowercased()) }
            }
            hop.url = next
        }
    }

    /// `fetching URL` for reads, `POST URL` for the rest: the start of every message.
    static func describe(_ request: HTTPRequest) -> String {
        ["GET", "HEAD"].contains(request.method)
            ? "fetching \(request.url.displayString)" : "\(request.method) \(request.url.displayString)"
    }

    static func timedOut(_ request: HTTPRequest) -> HTTPClientError {
        HTTPClientError(.timedOut, subject: describe(request), reason: "timed out after \(request.timeout.secondsText)")
    }

    /// `failed: …`, a transport failure of `original`.
    static func failed(_ original: HTTPRequest, _ reason: String) -> HTTPClientError {
        HTTPClientError(.transport, subject: describe(original), reason: "failed: \(reason)")
    }

    /// `host:port` when the address names a port, else the host.
    static func hostAndPort(_ url: URL) -> String {
        let host = url.host ?? "the server"
        return url.port.map { "\(host):\($0)" } ?? host
    }

    package static func resolve(_ location: String, against base: URL) -> URL? {
        if let url = URL(string: location, relativeTo: base) { return url.absoluteURL }
        // Servers send spaces and non-ASCII letters in Location; browsers encode them.
        var allowed = CharacterSet.urlQueryAllowed
        allowed.insert(charactersIn: "#%")
        guard let encoded = location.addingPercentEncoding(withAllowedCharacters: allowed) else { return nil }
        return URL(string: encoded, relativeTo: base)?.absoluteURL
    }
}

/// The HTTP client of this platform: `URLSessionHTTPClient` on Apple's systems, where URLSession is
/// part of the system and costs nothing at start-up; `CurlHTTPClient` elsewhere, which loads
/// libcurl only when the first request is sent (FoundationNetworking would map libcurl and ~35
/// libraries into every process at start).
#if canImport(Darwin)
    public typealias SystemHTTPClient = URLSessionHTTPClient
#else
    public typealias SystemHTTPClient = CurlHTTPClient
#endif

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
