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
        await lease.repeatEvery(interval) { [reconciler] in
            try await reconciler.run()
        } finished: { summary in
            logger.info("reconciliation", metadata: ["purser.summary": "\(summary)"])
            Self.record(summary, at: Date())
        } failed: { error in
            logger.error("reconciliation failed", metadata: ["error": "\(error)"])
            Counter(label: PurserMetrics.Name.reconciliationRuns, dimensions: [("outcome", "failed")]).increment()
        }
    }
}

extension ReconciliationService: CustomStringConvertible {
    /// What the service group logs for it (the reconciler holds Apple's key).
    public var description: String { "ReconciliationService(every: \(interval))" }
}
