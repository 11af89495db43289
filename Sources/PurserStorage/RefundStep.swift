import Foundation
import PurserCore

/// What both ledger stores share of a revoke and a restore: whether one applies, and the audit record's text.
/// The amounts come from `RefundRules`.
enum RefundStep {
    enum Check {
        /// Revoke from `previous` to the new share (milliunits) of `owner`'s credit.
        case proceed(owner: UserID, previous: Int)
        case unchanged(String)
    }

    /// Whether a revoke to `share` takes more of `record`: a credited transaction has revoked nothing yet, a revoked
    /// one its `revocationPercentage` (all of it when absent, as every revoke before partial refunds was whole).
    static func check(_ record: LedgerTransaction, share: Int) -> Check {
        guard let owner = record.ownerID, record.state == .credited || record.state == .revoked else {
            return .unchanged("the transaction is \(record.state.rawValue), not credited")
        }
        let previous = record.state == .revoked ? (record.transaction.revocationPercentage ?? RefundRules.whole) : 0
        guard share > previous else {
            return .unchanged(
                record.state == .revoked
                    ? "\(RefundRules.percentText(previous)) already revoked; Apple's share is "
                        + RefundRules.percentText(share)
                    : "Apple's share is \(RefundRules.percentText(share)): nothing to revoke")
        }
        return .proceed(owner: owner, previous: previous)
    }

    /// The audit detail of a revoke: what was taken from whom, the share before and after, the shortfall and the
    /// balances left below zero, e.g.
    /// `from alice gold-100 (REFUND_PRORATED: 50.000% → 80.000% of the purchase revoked); …`.
    static func revokeDetail(
        owner: UserID, adjustment: RefundRules.Adjustment, revocation: Revocation, previous: Int,
        negative: [String]
    ) -> String {
        let taken = adjustment.revoked.sorted.map { "\($0.currency)-\($0.amount)" }.joined(separator: " ")
        var detail =
            "from \(owner) \(taken.isEmpty ? "nothing" : taken) (\(revocation.type?.rawValue ?? "refund"): "
            + "\(RefundRules.percentText(previous)) → \(RefundRules.percentText(revocation.share)) of the purchase "
            + "revoked)"
        if !adjustment.shortfall.isEmpty {
            let short = adjustment.shortfall.sorted.map { "\($0.currency)=\($0.amount)" }.joined(separator: ", ")
            detail += "; shortfall \(short) not revoked: refunds.allowNegativeBalance is false, revoked down to zero"
        }
        if !negative.isEmpty { detail += "; balance now negative: \(negative.joined(separator: ", "))" }
        return detail
    }

    /// The audit detail of a restore, e.g. `to alice gold+80`.
    static func restoreDetail(owner: UserID, restored: Grants) -> String {
        let given = restored.sorted.map { "\($0.currency)+\($0.amount)" }.joined(separator: " ")
        return "to \(owner) \(given.isEmpty ? "nothing (nothing had been revoked)" : given)"
    }
}
