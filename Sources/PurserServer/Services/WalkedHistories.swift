import Synchronization

/// The transaction ids one reconciliation run has seen in the histories it walked, each with the revision its
/// history ended at: an account whose latest transaction is among them shares that history and is not walked again.
/// Shared by the run's concurrent walks.
final class WalkedHistories: Sendable {
    private let revisions = Mutex<[String: String]>([:])

    /// The revision at which the history holding `transactionID` was walked this run, or nil.
    func revision(of transactionID: String) -> String? {
        revisions.withLock { $0[transactionID] }
    }

    /// Notes that `transactionIDs` were walked in a history that ended at `revision`.
    func note(_ transactionIDs: [String], endingAt revision: String) {
        revisions.withLock { revisions in
            for id in transactionIDs { revisions[id] = revision }
        }
    }
}
