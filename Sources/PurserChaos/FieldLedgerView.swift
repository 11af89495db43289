/// A field flow's books, as the invariant check reads them.
struct FieldLedgerView: LedgerView {
    let server: FieldServer

    func credits(of transactionID: String) async throws -> [String] { await server.credits(of: transactionID) }
    func state(of transactionID: String) async throws -> String {
        await server.hasDecided(transactionID) ? "answered, credited nobody" : "never heard of it"
    }
    /// A field flow never takes a refund back.
    func revocation(of transactionID: String) async throws -> (owner: String, share: Int)? { nil }
    func balance(of user: String) async throws -> Int64 { await server.balance(of: user) }
}
