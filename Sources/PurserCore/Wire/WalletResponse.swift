/// `GET /v1/wallet`: the authenticated user's balances per currency, summed from the ledger's grants.
public struct WalletResponse: Codable, Sendable, Hashable {
    public var userId: UserID
    public var balances: [String: Int64]
    public init(userId: UserID, balances: [String: Int64]) {
        self.userId = userId
        self.balances = balances
    }
}
