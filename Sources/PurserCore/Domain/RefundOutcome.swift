/// What a refund (or its reversal) did to the ledger.
public enum RefundOutcome: Hashable, Sendable {
    /// Grants were taken back (negative grants) or given back after a reversed refund: `grants` holds the amounts
    /// moved (positive), `shortfall` what a revoke was due but left, the balance being too low
    /// (`refunds.allowNegativeBalance` false), and `share` the share of the credit revoked afterwards (milliunits;
    /// 0 after a restore).
    case applied(owner: UserID, grants: Grants, shortfall: Grants, share: Int)
    /// The transaction is not credited (unbound, refused, revoked before it was credited): its record now remembers
    /// Apple's refunded share (or forgets it, after a reversal), so that a later credit takes it back at once. The
    /// audit record's text.
    case noted(String)
    /// Nothing to do: already in that state, or never credited.
    case unchanged(String)
    /// The ledger has never seen the transaction.
    case unknownTransaction
}
