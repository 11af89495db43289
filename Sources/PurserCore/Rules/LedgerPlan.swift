/// The writes one decision needs, applied by a ledger store in a single database transaction, and the decision itself.
public struct LedgerPlan: Hashable, Sendable {
    public enum TransactionWrite: Hashable, Sendable {
        /// Nothing changes (a repeat of a settled transaction).
        case none
        /// First sight of the transaction: insert it (the unique key on `transactionID` guards against races).
        case insert(LedgerTransaction)
        /// A recorded unbound transaction is now bound and credited.
        case bind(LedgerTransaction)
        /// A credited transaction is now revoked by `revoke` (its signed data carries a refund the ledger had not
        /// taken back): the record as it is afterwards.
        case revoke(LedgerTransaction)
    }

    public var decision: Decision
    public var write: TransactionWrite
    /// The order that this transaction fulfils, if any.
    public var fulfilledOrder: OrderID?
    public var audit: [AuditEvent]
    /// Where the submission came from: the credit's webhook event carries its `category` as the cause.
    public var source: Submission.Source?
    /// The token to write to Apple's record of the transaction (Set App Account Token) because this plan binds it to
    /// an account Apple's record does not name: the order's UUID, or for an operator's grant without an order the
    /// account's token (`OrderID.accountToken(for:)`). `nil` when Apple's record already says it, or when Apple's
    /// servers never saw the transaction.
    public var appAccountTokenForApple: OrderID?
    /// The share Apple refunded before this credit, taken back in the same database transaction: the credit's
    /// record is then `revoked` with that share, and the store writes the credit's grants and events, then these.
    public var revoke: RevokePlan?
    /// The owner whose balances the store must read and plan again with (`SubmissionRules.plan(_:existing:order:
    /// balances:now:)`): a revoke at credit that may not take a balance below zero needs them. Rare: only a
    /// purchase Apple refunded in part before Purser credited it.
    public var balancesNeeded: UserID?

    public init(
        decision: Decision, write: TransactionWrite, fulfilledOrder: OrderID? = nil, audit: [AuditEvent] = [],
        source: Submission.Source? = nil
    ) {
        self.decision = decision
        self.write = write
        self.fulfilledOrder = fulfilledOrder
        self.audit = audit
        self.source = source
    }

    /// Who credits the transaction, when this plan credits it: its source's `category` (`client`, `notification`,
    /// `reconciliation`, `support`); ledgers keep it to know which credits to finish at Apple. `nil` for a
    /// transaction Apple's servers never saw (`AppStoreEnvironment.isKnownToApple`).
    public var creditedBy: String? {
        guard credits, let written, written.transaction.environment.isKnownToApple else { return nil }
        return source?.category
    }

    /// Whether this plan credits the transaction (and, with `revoke`, takes back at once what Apple refunded).
    public var credits: Bool {
        guard let written, written.ownerID != nil else { return false }
        if case .revoke = write { return false }
        return written.state == .credited || (written.state == .revoked && revoke != nil)
    }

    /// The record after the plan is applied, when it writes one.
    public var written: LedgerTransaction? {
        switch write {
        case .none: nil
        case .insert(let record), .bind(let record), .revoke(let record): record
        }
    }
}
