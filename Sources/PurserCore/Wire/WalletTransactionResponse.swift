/// The answer to a wallet transaction (a spend from the app, or the backend's spend or deposit): what applied, and
/// the balances of those currencies right after; `replayed` when the id had applied before and nothing changed now.
public struct WalletTransactionResponse: Codable, Sendable, Hashable {
    public var id: String
    public var userId: UserID
    /// As applied to the wallet: negative for what was taken.
    public var amounts: [String: Int64]
    public var balances: [String: Int64]
    public var replayed: Bool

    public init(id: String, userId: UserID, amounts: [String: Int64], balances: [String: Int64], replayed: Bool) {
        self.id = id
        self.userId = userId
        self.amounts = amounts
        self.balances = balances
        self.replayed = replayed
    }
}
