/// The writes one decision needs, applied by a ledger store in a single database transaction, and the decision itself.
public struct LedgerPlan: Hashable, Sendable {
    public enum TransactionWrite: Hashable, Sendable {
        /// Nothing changes (a repeat of a settled transaction).
        case none
        /// First sight of the transaction: insert it (the unique key on `transactionID` guards against races).
        case insert(LedgerTransaction)
        /// A recorded unbound transaction is now bound and credited.
        case bind(LedgerTransaction)
    }

    public var decision: Decision
    public var write: TransactionWrite
    /// The order that this transaction fulfils, if any.
    public var fulfilledOrder: OrderID?
    public var audit: [AuditEvent]
    /// Where the submission came from: the credit's webhook event carries its `category` as the cause.
    public var source: Submission.Source?

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

    /// The record after the plan is applied, when it writes one.
    public var written: LedgerTransaction? {
        switch write {
        case .none: nil
        case .insert(let record), .bind(let record): record
        }
    }
}
