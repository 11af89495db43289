import Foundation
import Logging
import PurserStorage
import ServiceLifecycle

/// Records the queues' sizes (the webhook backlog, the unbound transactions) every `interval` for the console's
/// dashboard, under the ledger's `queue-sampler` lease so replicas on one ledger take one sample per interval, and
/// forgets samples older than the dashboard shows.
public struct QueueSamplerService: Service, CustomStringConvertible {
    let store: any LedgerStore
    let interval: Duration
    let lease: LeasedWork
    let logger: Logger
    let now: @Sendable () -> Date

    /// How far back the dashboard draws, and so how long a sample is kept.
    public static let window: TimeInterval = 48 * 3_600

    public init(
        store: any LedgerStore, interval: Duration, lease: LeasedWork, logger: Logger,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.interval = interval
        self.lease = lease
        self.logger = logger
        self.now = now
    }

    public func run() async throws {
        await lease.repeatEvery(interval) { [store, now] in
            try await Self.sample(store, now: now())
        } finished: { _ in
        } failed: { error in
            logger.error("queue sample failed", metadata: ["error": "\(error)"])
        }
    }

    /// Takes one sample: the same counts the dashboard shows as numbers.
    static func sample(_ store: any LedgerStore, now: Date) async throws {
        let health = try await store.health()
        let summary = try await store.webhookSummary()
        let sample = QueueSample(
            at: now, webhookBacklog: health.undeliveredEvents.count + summary.undispatched,
            unbound: health.unbound.count)
        try await store.recordQueueSample(sample, forgettingBefore: now.addingTimeInterval(-window - 3_600))
    }

    public var description: String { "QueueSamplerService(every: \(interval))" }
}
