import Logging
import ServiceLifecycle
import UnixSignals

extension PurserStudio {
    /// Runs `application` (this studio's `application(…)`) as `serve` does, until one of `signals` arrives; then it
    /// drains as a load balancer needs (`http.drainSeconds`): `/ready` answers 503 `draining` while every request, on
    /// new connections and kept-alive ones, is still answered. Only then does the server's own graceful shutdown
    /// begin: the listener closes, the requests in flight finish, the workers stop and the ledgers close.
    public func runService(
        _ application: some Service, gracefulShutdownSignals signals: [UnixSignal] = [.sigterm, .sigint]
    ) async throws {
        let drainService = DrainService(
            drain: drain, seconds: home.configuration.http.drainSeconds, logger: home.logger)
        // A group shuts its services down one at a time, the last first: the drain, then the application.
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: application), .init(service: drainService)],
                gracefulShutdownSignals: signals, logger: home.logger))
        try await group.run()
        home.logger.notice("stopped: every request was answered, the workers stopped and the ledgers are closed")
    }
}
