#if canImport(Darwin)
import Foundation
public import SkillbookCore

/// The `HTTPClient` of Apple's systems, on `URLSession` (Linux uses `CurlHTTPClient`, so that no
/// process maps FoundationNetworking and libcurl before it sends a request).
///
/// Each hop of a redirect chain is its own ephemeral session (no cookies, no cache, no stored
/// credentials) whose delegate refuses URLSession's own redirect handling, so that the rules of
/// `HTTPClient` (count, schemes, dropping credentials across origins) are applied here, the same on
/// Linux and macOS. The body is streamed through the delegate and the transfer is cancelled as soon
/// as `maxBodyBytes` have arrived, so a huge page costs no more than the cap.
public struct URLSessionHTTPClient: HTTPClient {
    public init() {}

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await HTTPRedirects.send(request) { hop, remaining in
            try await exchange(hop, timeout: remaining, original: request)
        }
    }

    /// One request and its response, without following redirects.
    private func exchange(_ request: HTTPRequest, timeout: Double, original: HTTPRequest) async throws -> HTTPResponse {
        let delegate = ExchangeDelegate(cap: max(0, request.maxBodyBytes))
        // The timer below enforces `timeout`; URLSession's own (whole seconds on Linux, where 0.5
        // truncates to "at once") only backs it up.
        let sessionTimeout = timeout.rounded(.up) + 1
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = sessionTimeout
        configuration.timeoutIntervalForResource = sessionTimeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCredentialStorage = nil
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        defer { session.invalidateAndCancel() }

        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: sessionTimeout)
        urlRequest.httpMethod = request.method
        for header in request.headers { urlRequest.addValue(header.value, forHTTPHeaderField: header.name) }
        urlRequest.httpBody = request.body
        let task = session.dataTask(with: urlRequest)

        // A Dispatch timer rather than a sleeping task: it fires on time even when the cooperative
        // pool is busy.
        let timer = DispatchWorkItem {
            if delegate.finish(.failure(TimedOut())) { task.cancel() }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
        defer { timer.cancel() }
        do {
            let outcome = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    if delegate.begin(continuation) { task.resume() }
                }
            } onCancel: {
                if delegate.finish(.failure(CancellationError())) { task.cancel() }
            }
            let headers = outcome.response.allHeaderFields.compactMap { key, value -> HTTPHeader? in
                guard let name = key as? String else { return nil }
                return HTTPHeader(name.lowercased(), "\(value)")
            }
            return HTTPResponse(
                status: outcome.response.statusCode, headers: headers.sorted { $0.name < $1.name }, body: outcome.body,
                truncated: outcome.truncated, url: request.url)
        } catch is TimedOut {
            throw HTTPRedirects.timedOut(original)
        } catch let error as CancellationError {
            throw error
        } catch let error as URLError {
            if error.code == .timedOut { throw HTTPRedirects.timedOut(original) }
            if error.code == .cancelled, Task.isCancelled { throw CancellationError() }
            throw HTTPClientError(
                .transport, subject: HTTPRedirects.describe(original), reason: "failed: \(Self.reason(error, url: request.url))")
        } catch let error as HTTPClientError {
            throw error
        } catch {
            throw HTTPClientError(
                .transport, subject: HTTPRedirects.describe(original), reason: "failed: \(error.localizedDescription)")
        }
    }

    static func reason(_ error: URLError, url: URL) -> String {
        let host = url.host ?? "the server"
        let hostAndPort = url.port.map { "\(host):\($0)" } ?? host
        switch error.code {
        case .cannotConnectToHost: return "cannot connect to \(hostAndPort) (nothing is listening, or it refused)"
        case .cannotFindHost, .dnsLookupFailed: return "cannot find the host \(host)"
        case .notConnectedToInternet: return "there is no network connection"
        case .networkConnectionLost: return "the connection to \(hostAndPort) was lost"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return "the secure connection to \(host) could not be established (\(error.localizedDescription))"
        case .badServerResponse: return "\(hostAndPort) sent an invalid HTTP response"
        case .unsupportedURL: return "the address is not supported"
        default: return error.localizedDescription
        }
    }

    private struct TimedOut: Error {}
}

/// What one exchange's delegate collects, and the single place that ends the exchange: the first
/// of completion, the body cap, the timer and cancellation wins; later ones are ignored.
private final class ExchangeDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct Outcome {
        var response: HTTPURLResponse
        var body: Data
        var truncated: Bool
    }

    private let lock = NSLock()
    private let cap: Int
    private var continuation: CheckedContinuation<Outcome, any Error>?
    /// An ending that came before `begin`.
    private var early: Result<Outcome, any Error>?
    private var finished = false
    private var response: HTTPURLResponse?
    private var body = Data()

    init(cap: Int) {
        self.cap = cap
    }

    /// Installs the continuation; false when the exchange already ended (it is resumed at once).
    func begin(_ continuation: CheckedContinuation<Outcome, any Error>) -> Bool {
        lock.lock()
        if let early {
            lock.unlock()
            continuation.resume(with: early)
            return false
        }
        self.continuation = continuation
        lock.unlock()
        return true
    }

    /// Ends the exchange with `result`; false when it had already ended.
    @discardableResult
    func finish(_ result: Result<Outcome, any Error>) -> Bool {
        lock.lock()
        guard !finished else {
            lock.unlock()
            return false
        }
        finished = true
        let continuation = self.continuation
        self.continuation = nil
        if continuation == nil { early = result }
        body = Data()
        lock.unlock()
        continuation?.resume(with: result)
        return true
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @Sendable @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @Sendable @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        lock.withLock { self.response = response as? HTTPURLResponse }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        guard !finished else {
            lock.unlock()
            return
        }
        let room = cap - body.count
        guard data.count > room else {
            body.append(data)
            lock.unlock()
            return
        }
        body.append(data.prefix(room))
        let outcome = response.map { Outcome(response: $0, body: body, truncated: true) }
        lock.unlock()
        if let outcome {
            if finish(.success(outcome)) { dataTask.cancel() }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let outcome = lock.withLock {
            (response ?? task.response as? HTTPURLResponse).map { Outcome(response: $0, body: body, truncated: false) }
        }
        if let error {
            finish(.failure(error))
        } else if let outcome {
            finish(.success(outcome))
        } else {
            finish(.failure(URLError(.badServerResponse)))
        }
    }
}
#endif
