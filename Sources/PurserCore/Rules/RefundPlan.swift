import Foundation

/// What a refund, or its reversal, writes to the ledger: planned by `RefundRules.plan(revoke:…)` or
/// `RefundRules.plan(restore:…)` from the transaction's record and its owner's balances, and applied by a ledger store
/// in the one database transaction in which it read them.
public enum RefundPlan: Hashable, Sendable {
    /// Take back part or all of a credit.
    case revoke(RevokePlan)
    /// Give back what a credit's refunds took, Apple having reversed them.
    case restore(RestorePlan)
    /// Apple's refund of a transaction the ledger has not credited (unbound, refused), or its reversal: the record
    /// remembers Apple's share, so that the credit that may bind it later takes that share back in the same database
    /// transaction.
    case note(RefundNote)
    /// Nothing to write; why.
    case unchanged(String)

    /// What the store answers once the plan is applied.
    public var outcome: RefundOutcome {
        switch self {
        case .revoke(let plan):
            .applied(
                owner: plan.owner, grants: plan.adjustment.revoked, shortfall: plan.adjustment.shortfall,
                share: plan.share)
        case .restore(let plan): .applied(owner: plan.owner, grants: plan.restored, shortfall: .none, share: 0)
        case .note(let note): .noted(note.audit.detail)
        case .unchanged(let why): .unchanged(why)
        }
    }
}

/// One revoke: the owner's grants taken back from `previous` to `share` (milliunits), as `RefundRules.revoke` computes.
public struct RevokePlan: Hashable, Sendable {
    public var transactionID: String
    public var owner: UserID
    /// The share revoked before (milliunits).
    public var previous: Int
    /// The share revoked afterwards: the record's `revocationPercentage` once applied.
    public var share: Int
    /// Apple's `revocationDate` and `revocationType`, written on the record.
    public var date: Date
    public var type: RevocationType?
    public var adjustment: RefundRules.Adjustment
    /// The `revoked` audit record.
    public var audit: AuditEvent

    /// Whether it writes a `transaction.revoked` event: something was taken back, or was due and could not be.
    public var writesEvent: Bool { !adjustment.revoked.isEmpty || !adjustment.shortfall.isEmpty }

    /// The grant rows it writes: each revoked amount, negated.
    public var grantRows: Amounts {
        get throws(AmountError) { try adjustment.revoked.money.negated() }
    }
}

/// One restore: what the refunds of the owner's credit took, given back; the record is credited again.
public struct RestorePlan: Hashable, Sendable {
    public var transactionID: String
    public var owner: UserID
    /// Positive amounts given back.
    public var restored: Grants
    /// The `restored` audit record.
    public var audit: AuditEvent
}

/// Apple's share of a transaction the ledger has not credited, written on its record (`share` nil: cleared).
public struct RefundNote: Hashable, Sendable {
    public var transactionID: String
    /// The record's state afterwards: `revoked` for an unbound transaction Apple refunded whole (nothing to credit
    /// any more), `unbound` for one Apple revoked before it was credited and whose refund it reversed, else as it was.
    public var state: LedgerTransaction.State
    /// Apple's refunded share (milliunits), date and type; all `nil` when a reversal cleared them.
    public var share: Int?
    public var date: Date?
    public var type: RevocationType?
    /// The `refund_noted` or `refund_reversed` audit record.
    public var audit: AuditEvent
}
