import PurserCore

/// What the spending game backend does with a player's gold after one of their purchases, drawn from the seed: a
/// spend, or a hold that it then captures in part, voids, or leaves to expire. Amounts may exceed the balance, so
/// some are refused (`insufficient_balance`) and the floor is tested.
public struct PlannedWalletOperation: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case spend
        /// A hold, then a capture of `percent` of it (the rest released).
        case holdThenCapture(percent: Int)
        case holdThenVoid
        /// A hold of one second, never resolved: the leased sweep expires it.
        case holdToExpire
    }

    public var kind: Kind
    /// Gold to spend or hold.
    public var amount: Int64
    /// The backend's idempotency id: the spend's, or the hold's.
    public var id: String
    /// With `spend-retry`: how many more times each request is sent with the same id (one of them at once, beside the
    /// first).
    public var replays: Int
}

extension ChaosPlan {
    /// Half of the purchases are followed by a wallet operation, from the plan's own stream (`random`), so older seeds
    /// plan the same purchases as before; `spendRetry` says whether the `spend-retry` family hits it.
    static func walletOperation(
        after purchase: Int, spendRetry: Bool, using random: inout SeededGenerator
    ) -> PlannedWalletOperation? {
        guard Bool.random(using: &random) else { return nil }
        let kind: PlannedWalletOperation.Kind =
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5: .spend
            case 5..<7: .holdThenCapture(percent: Int.random(in: 1...100, using: &random))
            case 7..<9: .holdThenVoid
            default: .holdToExpire
            }
        return PlannedWalletOperation(
            kind: kind, amount: Int64.random(in: 1...150, using: &random), id: "chaos-wallet-\(purchase)",
            replays: spendRetry ? Int.random(in: 1...3, using: &random) : 0)
    }
}
