/// `POST /v1/wallet/spend` body (and the admin API's wallet transaction without metadata): `id` is the caller's
/// idempotency key, kept forever; every amount is negative, what the spend takes of each currency.
public struct WalletSpendRequest: Codable, Sendable, Hashable {
    public var id: String
    public var amounts: [String: Int64]
    public var reason: String

    public init(id: String, amounts: [String: Int64], reason: String) {
        self.id = id
        self.amounts = amounts
        self.reason = reason
    }
}
