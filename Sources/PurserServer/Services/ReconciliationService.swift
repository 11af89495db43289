import Foundation
import Logging
import Metrics
import ServiceLifecycle

/// Runs the `Reconciler` every `interval` inside `purser serve`, logging each summary; a failed run is logged and
/// retried at the next tick. With several replicas each run holds the ledger's `reconciliation` lease, so one replica
/// reconciles at a time and a killed replica's run is taken over (from its saved cursors) once the lease expires.
public struct ReconciliationService: Service {
    let reconciler: Reconciler
    let interval: Duration
    let lease: LeasedWork
    let logger: Logger

    public init(reconciler: Reconciler, interval: Duration, lease: LeasedWork, logger: Logger) {
        self.reconciler = reconciler
        self.interval = interval
        self.lease = lease
        self.logger = logger
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            // A graceful shutdown cuts the wait short instead of waiting out the interval.
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            guard !Task.isShuttingDownGracefully, !Task.isCancelled else { return }
            do {
                let summary = try await cancelWhenGracefulShutdown {
                    try await lease.runIfFree { try await reconciler.run() }
                }
                if let summary {
                    logger.info("reconciliation", metadata: ["purser.summary": "\(summary)"])
                    Self.record(summary, at: Date())
                } else {
                    logger.debug("reconciliation runs on another replica", metadata: ["purser.lease": "\(lease.name)"])
                }
            } catch {
                logger.error("reconciliation failed", metadata: ["error": "\(error)"])
                Counter(label: PurserMetrics.Name.reconciliationRuns, dimensions: [("outcome", "failed")]).increment()
            }
        }
    }
}
