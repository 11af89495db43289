import Foundation

extension SubmissionRules {
    /// Every settlement takes back what Apple's signed data says it refunded and the ledger has not revoked yet, in
    /// the same plan: so no crash between two writes, and no race between a refund's notification and the credit it
    /// arrived before, can leave a credit without its revoke.
    ///
    /// - A credit (a first sight, or a bind) of a purchase Apple has already refunded in part (or, binding an unbound
    ///   one, in whole) revokes that share: the one the submission's transaction carries, or the one the ledger noted
    ///   on the record when Apple's refund arrived while nobody could be credited (`RefundRules.plan(revoke:…)`),
    ///   the larger. The record is written `revoked` with that share.
    /// - A repeat of a credited (or partly revoked) transaction whose signed data carries a larger refunded share
    ///   than the ledger revoked revokes the difference (`LedgerPlan.TransactionWrite.revoke`).
    static func revokeRefundedShare(
        of plan: inout LedgerPlan, submission: Submission, existing: LedgerTransaction?, balances: [String: Int64]?,
        now: Date
    ) throws(AmountError) {
        let crediting = plan.credits
        guard var record = crediting ? plan.written : existing, let owner = record.ownerID, !record.grants.isEmpty
        else { return }
        let revokedSoFar: Int
        switch record.state {
        case .credited where crediting || plan.write == .none: revokedSoFar = 0
        case .revoked where crediting: revokedSoFar = 0
        case .revoked where plan.write == .none:
            revokedSoFar = record.transaction.revocationPercentage ?? RefundRules.whole
        default: return
        }
        let noted = crediting ? existing.flatMap { $0.state == .unbound || $0.state == .rejected ? $0 : nil } : nil
        let refunded = [submission.transaction, noted?.transaction].compactMap { $0 }
            .filter { $0.revokedShare ?? 0 > revokedSoFar }
            .max { ($0.revokedShare ?? 0) < ($1.revokedShare ?? 0) }
        guard let refunded, let share = refunded.revokedShare, let date = refunded.revocationDate else { return }
        let when = crediting ? "before it was credited" : "and the ledger had not revoked it"
        let revocation = Revocation(
            transactionID: record.transaction.transactionID, date: date, type: refunded.revocationType,
            percentage: refunded.revocationPercentage,
            cause: "\(submission.source.description) (refunded \(share < RefundRules.whole ? "in part " : "")\(when))",
            allowNegativeBalance: submission.allowNegativeBalance)
        var owned: [String: Int64]?
        if let balances {
            owned = crediting ? try Amounts(balances).adding(record.grants.money).values : balances
        } else if !submission.allowNegativeBalance {
            plan.balancesNeeded = owner
        }
        let revoke = try RefundRules.revokePlan(
            revocation, grants: record.grants, owner: owner, previous: revokedSoFar, balances: owned, now: now)
        record.state = .revoked
        record.transaction.revocationDate = date
        record.transaction.revocationType = refunded.revocationType
        record.transaction.revocationPercentage = revoke.share
        switch plan.write {
        case .insert: plan.write = .insert(record)
        case .bind: plan.write = .bind(record)
        case .none, .revoke: plan.write = .revoke(record)
        }
        plan.revoke = revoke
        plan.audit.append(revoke.audit)
    }
}
