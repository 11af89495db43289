import PurserCore

/// A spend the server applied, now or before.
public struct SpendResult: Sendable, Hashable {
    /// The spend's idempotency id.
    public var id: String
    /// What was taken of each currency, positive.
    public var spent: [String: Int64]
    /// The balances of those currencies right after it applied.
    public var balances: [String: Int64]
    /// The id had applied before (an earlier send whose answer was lost): nothing was taken now.
    public var replayed: Bool

    /// A result from its parts; public so an app's tests can make one.
    public init(id: String, spent: [String: Int64], balances: [String: Int64], replayed: Bool = false) {
        self.id = id
        self.spent = spent
        self.balances = balances
        self.replayed = replayed
    }

    init(_ answer: WalletTransactionResponse) {
        id = answer.id
        spent = answer.amounts.mapValues { -$0 }
        balances = answer.balances
        replayed = answer.replayed
    }
}
