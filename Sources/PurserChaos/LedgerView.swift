/// What a strategy's server credited, as the invariant check reads it. Two sides: Purser's ledger, and the
/// in-memory books of a field flow's server.
protocol LedgerView: Sendable {
    /// The accounts credited for `transactionID` (not counting credits taken back by a refund), one entry per credit.
    func credits(of transactionID: String) async throws -> [String]
    /// What the server says about the transaction when it did not credit it (for the report).
    func state(of transactionID: String) async throws -> String
    /// The account a transaction was credited to before a refund revoked part or all of it, and the share revoked
    /// (milliunits); `nil` when the server did not credit and then revoke it.
    func revocation(of transactionID: String) async throws -> (owner: String, share: Int)?
    /// The account's balance in the run's only currency.
    func balance(of user: String) async throws -> Int64
}
