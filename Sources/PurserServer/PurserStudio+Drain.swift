import Logging
import ServiceLifecycle
import UnixSignals

extension PurserStudio {
    /// Runs `application` (this studio's `application(…)`) as `serve` does, until one of `signals` arrives; then it
    /// drains as a load balancer needs (`http.drainSeconds`): `/ready` answers 503 `draining` while every request, on
    /// new connections and kept-alive ones, is still answered. Only then does the server's own graceful shutdown
    /// begin: the listener closes, the requests in flight finish, the workers stop and the ledgers close.
    /// `observability` (the span exporter `PurserTracing.bootstrap` returns) starts first and stops last.
    public func runService(
        _ application: some Service, gracefulShutdownSignals signals: [UnixSignal] = [.sigterm, .sigint],
        alongside observability: [any Service] = []
    ) async throws {
        let drainService = DrainService(
            drain: drain, seconds: home.configuration.http.drainSeconds, logger: home.logger)
        // A group shuts its services down one at a time, the last first: the drain, then the application, then
        // `observability` (the span exporter flushes what the application's last requests made).
        let group = ServiceGroup(
            configuration: .init(
                services: observability.map { .init(service: $0) } + [
                    .init(service: application), .init(service: drainService),
                ],
                gracefulShutdownSignals: signals, logger: home.logger))
        try await group.run()
        home.logger.notice("stopped: every request was answered, the workers stopped and the ledgers are closed")
    }
}
