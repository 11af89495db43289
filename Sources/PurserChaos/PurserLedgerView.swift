import PurserCore
import PurserStorage

/// Purser's ledger, read through `LedgerStore`.
struct PurserLedgerView: LedgerView {
    let store: any LedgerStore

    func credits(of transactionID: String) async throws -> [String] {
        guard let record = try await store.transaction(transactionID), record.state == .credited,
            let owner = record.ownerID
        else { return [] }
        return [owner.description]
    }

    func revocation(of transactionID: String) async throws -> (owner: String, share: Int)? {
        guard let record = try await store.transaction(transactionID), record.state == .revoked,
            let owner = record.ownerID
        else { return nil }
        return (owner.description, record.transaction.revocationPercentage ?? RefundRules.whole)
    }

    func state(of transactionID: String) async throws -> String {
        try await store.transaction(transactionID).map { $0.state.rawValue } ?? "unknown to the ledger"
    }

    func balance(of user: String) async throws -> Int64 {
        try await store.balances(of: UserID(user))["gold"] ?? 0
    }
}
