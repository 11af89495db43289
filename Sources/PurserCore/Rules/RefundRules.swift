/// How a refund takes back a credit, as a pure function both ledger stores apply in the revoke's database
/// transaction.
///
/// Apple's `revocationPercentage` describes the transaction: the share of the purchase refunded so far, not the
/// share of the latest refund. The ledger remembers the share it has revoked, and a refund takes back, per currency,
/// `floor(grant × share / 100000) − floor(grant × previousShare / 100000)`: the rounding always favours the customer
/// by less than one unit, the revoked amounts of several partial refunds add up to exactly the floor of the
/// cumulative share (so never more than the grant), and a repeated refund with the same share takes nothing.
public enum RefundRules {
    /// 100% in Apple's milliunits.
    public static let whole = 100_000

    /// The share of a purchase a revocation takes back, in milliunits: all of it for `REFUND_FULL`,
    /// `FAMILY_REVOKE` or no percentage at all (sources older than partial refunds); otherwise Apple's
    /// `revocationPercentage`, clamped to 0...100000.
    public static func share(type: RevocationType?, percentage: Int?) -> Int {
        if type?.isWhole == true { return whole }
        guard let percentage else { return whole }
        return min(max(percentage, 0), whole)
    }

    /// `floor(amount × share / 100000)` without overflow, for a non-negative `amount` and `share` in 0...100000.
    public static func revokedAmount(of amount: Int64, share: Int) -> Int64 {
        guard amount > 0, share > 0 else { return 0 }
        // The product needs up to 81 bits; the quotient is at most `amount`, so it fits.
        let product = amount.multipliedFullWidth(by: Int64(min(share, whole)))
        return Int64(whole).dividingFullWidth(product).quotient
    }

    /// What one revoke takes back: positive amounts per currency.
    public struct Adjustment: Hashable, Sendable {
        /// Taken back from the owner's balance.
        public var revoked: Grants
        /// Due by the share but not taken back, because the balance would have gone below zero.
        public var shortfall: Grants

        public init(revoked: Grants, shortfall: Grants) {
            self.revoked = revoked
            self.shortfall = shortfall
        }
    }

    /// The revoke of `grants` from `previousShare` to `share` (milliunits). With `balances` (the owner's balances per
    /// currency, before this revoke) a currency is taken back only down to zero and the rest is the shortfall;
    /// `nil` lets balances go below zero. Currencies with nothing to take back are left out.
    public static func revoke(grants: Grants, from previousShare: Int, to share: Int, balances: [String: Int64]?)
        throws(AmountError) -> Adjustment
    {
        var revoked: [String: Int64] = [:]
        var shortfall: [String: Int64] = [:]
        for (currency, amount) in grants.sorted {
            let due = try Amounts.subtract(
                revokedAmount(of: amount, share: share), revokedAmount(of: amount, share: previousShare),
                currency: currency)
            guard due > 0 else { continue }
            let available = balances.map { max($0[currency] ?? 0, 0) } ?? due
            let taken = min(due, available)
            if taken > 0 { revoked[currency] = taken }
            if due > taken { shortfall[currency] = try Amounts.subtract(due, taken, currency: currency) }
        }
        return Adjustment(revoked: Grants(revoked), shortfall: Grants(shortfall))
    }

    /// A share in milliunits as a percentage with three decimals, e.g. `50.000%`.
    public static func percentText(_ share: Int) -> String {
        let fraction = String(share % 1000)
        return "\(share / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)%"
    }
}
