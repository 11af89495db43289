import Foundation
import Logging
import PurserStorage
import ServiceLifecycle

/// Expires open wallet holds past their expiry every `interval` inside `purser serve`. Each run holds the ledger's
/// `wallet-holds` lease, and each hold expires once whoever sweeps it (a capture or void that meets an expired hold
/// first expires it too).
public struct HoldExpiryService: Service, CustomStringConvertible {
    let store: any LedgerStore
    let interval: Duration
    let lease: LeasedWork
    let logger: Logger
    let now: @Sendable () -> Date

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
            var expired = 0
            while true {
                let swept = try await store.expireHolds(now: now(), limit: 500)
                expired += swept
                if swept < 500 { return expired }
            }
        } finished: { expired in
            if expired > 0 { logger.info("wallet holds expired", metadata: ["purser.expired": "\(expired)"]) }
        } failed: { error in
            logger.error("wallet hold expiry failed", metadata: ["error": "\(error)"])
        }
    }

    public var description: String { "HoldExpiryService(every: \(interval))" }
}
