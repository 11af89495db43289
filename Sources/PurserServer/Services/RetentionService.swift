import Foundation
import Logging
import Metrics
import PurserStorage
import ServiceLifecycle

/// Prunes what is kept only for a while (`retention.days`) every `interval` inside `purser serve`, under the ledger's
/// `retention` lease so one replica does it: delivered webhook events' payloads, processed notifications' records,
/// expired leases (`LedgerStore.prune`). Each pass goes in batches until a batch comes back short, so no transaction
/// holds the ledger long.
public struct RetentionService: Service, CustomStringConvertible {
    let store: any LedgerStore
    let days: Int
    let interval: Duration
    let lease: LeasedWork
    let logger: Logger
    let now: @Sendable () -> Date

    /// Rows each batch changes at most.
    static let batch = 500

    public init(
        store: any LedgerStore, days: Int, interval: Duration, lease: LeasedWork, logger: Logger,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.days = days
        self.interval = interval
        self.lease = lease
        self.logger = logger
        self.now = now
    }

    public func run() async throws {
        await lease.repeatEvery(interval) { [store, days, now] in
            try await Self.prune(store, olderThanDays: days, now: now())
        } finished: { pruned in
            Self.record(pruned)
            if pruned.total > 0 {
                logger.info(
                    "retention pruned",
                    metadata: [
                        "purser.event_payloads": "\(pruned.eventPayloads)",
                        "purser.notifications": "\(pruned.notifications)", "purser.leases": "\(pruned.leases)",
                        "purser.trace_links": "\(pruned.traceLinks)",
                    ])
            }
        } failed: { error in
            logger.error("retention failed", metadata: ["error": "\(error)"])
        }
    }

    /// One whole pass: batches until each kind came back short of a full batch.
    static func prune(_ store: any LedgerStore, olderThanDays days: Int, now: Date) async throws -> LedgerPruning {
        let cutoff = now.addingTimeInterval(-Double(days) * 86_400)
        var total = LedgerPruning()
        while true {
            let pruned = try await store.prune(before: cutoff, limit: batch, now: now)
            total.eventPayloads += pruned.eventPayloads
            total.notifications += pruned.notifications
            total.leases += pruned.leases
            total.traceLinks += pruned.traceLinks
            if max(pruned.eventPayloads, pruned.notifications, pruned.leases, pruned.traceLinks) < batch {
                return total
            }
        }
    }

    /// `purser_retention_pruned_total`, by kind.
    static func record(_ pruned: LedgerPruning) {
        for (kind, count) in [
            ("event_payload", pruned.eventPayloads), ("notification", pruned.notifications), ("lease", pruned.leases),
            ("trace_link", pruned.traceLinks),
        ] {
            Counter(label: PurserMetrics.Name.retentionPruned, dimensions: [("kind", kind)]).increment(by: count)
        }
    }

    public var description: String { "RetentionService(days: \(days), every: \(interval))" }
}
