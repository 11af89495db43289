import Logging
import PurserStorage
import Synchronization

/// Logs a ledger outage (a database gone, a disk full or read-only) once per episode instead of once per request:
/// the first `storage_unavailable` answer logs an error, later ones are only counted, and the first request that
/// reaches the ledger again after it logs how many requests the episode refused and ends it.
final class LedgerOutageLog: Sendable {
    private let refused = Mutex<Int?>(nil)

    /// A request answered 503 `storage_unavailable` because of `error`.
    func refused(_ error: StorageError, logger: Logger) {
        let first = refused.withLock { count -> Bool in
            defer { count = (count ?? 0) + 1 }
            return count == nil
        }
        guard first else { return }
        logger.error(
            "the ledger is unavailable; answering 503 storage_unavailable until it is back",
            metadata: ["error": "\(String(reflecting: error))"])
    }

    /// A request that needed the ledger was answered: ends an episode, if one was under way.
    func served(logger: Logger) {
        guard
            let count = refused.withLock({ count -> Int? in
                defer { count = nil }
                return count
            })
        else { return }
        logger.notice("the ledger is back", metadata: ["purser.refusedRequests": "\(count)"])
    }
}
