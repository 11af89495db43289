import Logging
import ServiceLifecycle

/// Runs the `Reconciler` every `interval` inside `purser serve`, logging each summary; a failed run is logged and
/// retried at the next tick.
public struct ReconciliationService: Service {
    let reconciler: Reconciler
    let interval: Duration
    let logger: Logger

    public init(reconciler: Reconciler, interval: Duration, logger: Logger) {
        self.reconciler = reconciler
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            // A graceful shutdown cuts the wait short instead of waiting out the interval.
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            guard !Task.isShuttingDownGracefully, !Task.isCancelled else { return }
            do {
                let summary = try await cancelWhenGracefulShutdown { try await reconciler.run() }
                logger.info("reconciliation", metadata: ["purser.summary": "\(summary)"])
            } catch {
                logger.error("reconciliation failed", metadata: ["error": "\(error)"])
            }
        }
    }
}
