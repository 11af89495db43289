/// `GET /v1/wallet`: the authenticated user's currencies and what they own. Balances are summed from the ledger's
/// grants of consumables; a non-consumable the user owns is an entitlement (its product id), not a balance.
public struct WalletResponse: Codable, Sendable, Hashable {
    public var userId: UserID
    public var balances: [String: Int64]
    /// The non-consumables credited to the user and not refunded, by product id, sorted.
    public var entitlements: [String]

    public init(userId: UserID, balances: [String: Int64], entitlements: [String] = []) {
        self.userId = userId
        self.balances = balances
        self.entitlements = entitlements
    }

    enum CodingKeys: String, CodingKey { case userId, balances, entitlements }

    /// Reads a server older than entitlements as owning none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        userId = try container.decode(UserID.self, forKey: .userId)
        balances = try container.decode([String: Int64].self, forKey: .balances)
        entitlements = try container.decodeIfPresent([String].self, forKey: .entitlements) ?? []
    }
}
