/// `GET /v1/wallet`: the authenticated user's currencies and what they own. Balances are summed from the ledger's
/// grants of consumables; a non-consumable the user owns is an entitlement (its product id), not a balance.
public struct WalletResponse: Codable, Sendable, Hashable {
    public var userId: UserID
    public var balances: [String: Int64]
    /// The non-consumables credited to the user and not refunded, by product id, sorted.
    public var entitlements: [String]
    /// What the game's open holds reserve (a purchase in progress in the game's backend): not spendable.
    public var held: [String: Int64]
    /// What the user can spend now: each balance less what is held, never below 0.
    public var available: [String: Int64]

    public init(
        userId: UserID, balances: [String: Int64], entitlements: [String] = [], held: [String: Int64] = [:],
        available: [String: Int64]? = nil
    ) {
        self.userId = userId
        self.balances = balances
        self.entitlements = entitlements
        self.held = held
        self.available = available ?? balances.mapValues { max($0, 0) }
    }

    enum CodingKeys: String, CodingKey { case userId, balances, entitlements, held, available }

    /// Reads a server older than entitlements and holds as owning none and holding nothing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        userId = try container.decode(UserID.self, forKey: .userId)
        balances = try container.decode([String: Int64].self, forKey: .balances)
        entitlements = try container.decodeIfPresent([String].self, forKey: .entitlements) ?? []
        held = try container.decodeIfPresent([String: Int64].self, forKey: .held) ?? [:]
        available =
            try container.decodeIfPresent([String: Int64].self, forKey: .available) ?? balances.mapValues { max($0, 0) }
    }
}
