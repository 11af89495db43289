/// What a refund (or its reversal) did to the ledger.
public enum RefundOutcome: Hashable, Sendable {
    /// The grants were taken back (negative grants), or given back after a reversed refund.
    case applied(owner: UserID, grants: Grants)
    /// Nothing to do: already in that state, or never credited.
    case unchanged(String)
    /// The ledger has never seen the transaction.
    case unknownTransaction
}
