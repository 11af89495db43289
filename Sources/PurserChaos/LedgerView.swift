import PurserCore
import PurserStorage

/// What a strategy's server credited, as the invariant check reads it. Two sides: Purser's ledger, and the
/// in-memory books of a field flow's server.
protocol LedgerView: Sendable {
    /// The accounts credited for `transactionID` (not counting credits taken back by a refund), one entry per credit.
    func credits(of transactionID: String) async throws -> [String]
    /// What the server says about the transaction when it did not credit it (for the report).
    func state(of transactionID: String) async throws -> String
    /// The account's balance in the run's only currency.
    func balance(of user: String) async throws -> Int64
}

/// Purser's ledger, read through `LedgerStore`.
struct PurserLedgerView: LedgerView {
    let store: any LedgerStore

    func credits(of transactionID: String) async throws -> [String] {
        guard let record = try await store.transaction(transactionID), record.state == .credited,
            let owner = record.ownerID
        else { return [] }
        return [owner.description]
    }

    func state(of transactionID: String) async throws -> String {
        try await store.transaction(transactionID).map { $0.state.rawValue } ?? "unknown to the ledger"
    }

    func balance(of user: String) async throws -> Int64 {
        try await store.balances(of: UserID(user))["gold"] ?? 0
    }
}
