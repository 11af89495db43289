import Hummingbird
import Logging
import NIOCore
import Prometheus
import ServiceLifecycle

/// The metrics listener: `GET /metrics` in Prometheus' text format on a port of its own (`metrics.port`), behind a
/// bearer token when `metrics.token` is set. Every app's ledger gauges are read at each scrape; a ledger that cannot
/// be read leaves its gauges as they were and the scrape still answers.
struct MetricsListener: Sendable {
    let registry: PrometheusCollectorRegistry
    let gauges: [LedgerGauges]
    let token: String?
    let logger: Logger

    /// The listener as a service of the server's group (a Hummingbird application of its own).
    func application(host: String, port: Int, onRunning: @escaping @Sendable (Int) async -> Void) -> any Service {
        let router = Router()
        let (registry, gauges, token, logger) = (registry, gauges, token, logger)
        router.get("metrics") { request, _ -> Response in
            if let token {
                guard ConstantTime.equal(request.headers[.authorization] ?? "", "Bearer \(token)") else {
                    return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Bearer"])
                }
            }
            for app in gauges {
                do {
                    try await PurserMetrics.$app.withValue(app.app) { try await app.refresh() }
                } catch {
                    logger.warning(
                        "metrics: the ledger's gauges could not be read",
                        metadata: ["error": "\(error)", "app": "\(app.app)"])
                }
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
        // Quieter than the API's: its "listening on" line is the API's alone (scripts and tests read it).
        var quiet = logger
        quiet.logLevel = max(logger.logLevel, .notice)
        return Application(
            router: router, configuration: .init(address: .hostname(host, port: port), serverName: "Purser metrics"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                logger.notice("metrics at http://\(host):\(port)/metrics")
                await onRunning(port)
            }, logger: quiet)
    }
}
