import Foundation
import PurserCore

extension LedgerStore {
    /// Takes back all of a credited transaction's grants: a whole refund (`revoke(_:now:)` with no percentage).
    public func revoke(transactionID: String, revocationDate: Date, cause: String, now: Date) async throws
        -> RefundOutcome
    {
        try await revoke(Revocation(transactionID: transactionID, date: revocationDate, cause: cause), now: now)
    }
}
