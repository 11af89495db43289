/// What a refund (or its reversal) did to the ledger.
public enum RefundOutcome: Hashable, Sendable {
    /// Grants were taken back (negative grants) or given back after a reversed refund: `grants` holds the amounts
    /// moved (positive), `shortfall` what a revoke was due but left, the balance being too low
    /// (`refunds.allowNegativeBalance` false), and `share` the share of the credit revoked afterwards (milliunits;
    /// 0 after a restore).
    case applied(owner: UserID, grants: Grants, shortfall: Grants, share: Int)
    /// Nothing to do: already in that state, or never credited.
    case unchanged(String)
    /// The ledger has never seen the transaction.
    case unknownTransaction
}
