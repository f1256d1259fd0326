import Foundation
public import SkillbookCore
public import SkillbookHost

/// `--metrics ADDR:PORT`: `GET /metrics` answers the registry's exposition in the Prometheus text
/// format (0.0.4), on the console's HTTP server. A `Service`: it serves until graceful shutdown
/// is asked (or its task is cancelled), then stops.
public final class MetricsServer: Service {
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    public let address: String
    public let port: Int
    public let metrics: SkillbookMetrics
    private let onReady: @Sendable (_ url: String) -> Void

    /// `onReady` gets `http://ADDR:PORT/metrics` (the port bound when `port` is 0) once it listens.
    public init(address: String, port: Int, metrics: SkillbookMetrics, onReady: @escaping @Sendable (_ url: String) -> Void = { _ in }) {
        self.address = address
        self.port = port
        self.metrics = metrics
        self.onReady = onReady
    }

    public func run() async throws {
        let metrics = metrics
        let server: HTTPServer
        do {
            server = try HTTPServer(address: address, port: port) { request in
                await Self.respond(request, metrics: metrics)
            }
        } catch {
            throw HTTPServerError(message: "--metrics \(HTTPServer.hostText(address)):\(port): \(error.message)")
        }
        onReady("http://\(HTTPServer.hostText(address)):\(server.port)/metrics")
        await GracefulShutdown.requested()
        server.stopAccepting()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                server.stop()
                continuation.resume()
            }.start()
        }
    }

    static func respond(_ request: ServerRequest, metrics: SkillbookMetrics) async -> ServerResponse {
        guard request.path == "/metrics" else {
            return ServerResponse(status: 404, contentType: "text/plain; charset=utf-8", text: "not found: metrics are at /metrics\n")
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = ServerResponse(status: 405, contentType: "text/plain; charset=utf-8", text: "only GET\n")
            response.headers.append(("Allow", "GET, HEAD"))
            return response
        }
        return ServerResponse(status: 200, contentType: contentType, text: await metrics.registry.exposition())
    }
}
