import Foundation

extension RefundRules {
    /// The plan of Apple's refund `revocation` of the transaction `record`, whose owner held `balances` before it
    /// (each currency summed over the owner's grants and wallet entries).
    ///
    /// A credit is revoked from the share revoked so far to Apple's (nothing when Apple's share is no larger); a
    /// transaction the ledger has not credited (unbound, refused) notes Apple's share instead, so that the credit
    /// that binds it later revokes that share in the same database transaction; an unbound transaction Apple
    /// refunded whole is `revoked` and never credited.
    public static func plan(
        revoke revocation: Revocation, of record: LedgerTransaction, balances: [String: Int64], now: Date
    ) throws(AmountError) -> RefundPlan {
        guard let owner = record.ownerID, record.state == .credited || record.state == .revoked else {
            return note(revocation, of: record, now: now)
        }
        let share = revocation.share
        let previous = record.state == .revoked ? (record.transaction.revocationPercentage ?? whole) : 0
        guard share > previous else {
            return .unchanged(
                record.state == .revoked
                    ? "\(percentText(previous)) already revoked; Apple's share is \(percentText(share))"
                    : "Apple's share is \(percentText(share)): nothing to revoke")
        }
        return .revoke(
            try revokePlan(
                revocation, grants: record.grants, owner: owner, previous: previous, balances: balances, now: now))
    }

    /// The revoke of `grants` credited to `owner` from `previous` to `revocation.share`; `balances` are the owner's
    /// before it (`nil`: unknown, only when `revocation.allowNegativeBalance` lets the balance go below zero).
    static func revokePlan(
        _ revocation: Revocation, grants: Grants, owner: UserID, previous: Int, balances: [String: Int64]?,
        now: Date
    ) throws(AmountError) -> RevokePlan {
        let share = revocation.share
        let adjustment = try revoke(
            grants: grants, from: previous, to: share, balances: revocation.allowNegativeBalance ? nil : balances)
        var negative: [String] = []
        if let balances {
            let after = try Amounts(balances).subtracting(adjustment.revoked.money)
            negative = after.sorted.filter { $0.amount < 0 }.map { "\($0.currency)=\($0.amount)" }
        }
        let taken = adjustment.revoked.sorted.map { "\($0.currency)-\($0.amount)" }.joined(separator: " ")
        var detail =
            "from \(owner) \(taken.isEmpty ? "nothing" : taken) (\(revocation.type?.rawValue ?? "refund"): "
            + "\(percentText(previous)) → \(percentText(share)) of the purchase revoked)"
        if !adjustment.shortfall.isEmpty {
            let short = adjustment.shortfall.sorted.map { "\($0.currency)=\($0.amount)" }.joined(separator: ", ")
            detail += "; shortfall \(short) not revoked: refunds.allowNegativeBalance is false, revoked down to zero"
        }
        if !negative.isEmpty { detail += "; balance now negative: \(negative.joined(separator: ", "))" }
        return RevokePlan(
            transactionID: revocation.transactionID, owner: owner, previous: previous, share: share,
            date: revocation.date, type: revocation.type, adjustment: adjustment,
            audit: AuditEvent(
                at: now, subject: .transaction, subjectID: revocation.transactionID, event: "revoked",
                cause: revocation.cause, detail: detail))
    }

    /// Apple refunded a transaction the ledger has not credited: its record keeps the larger share.
    private static func note(_ revocation: Revocation, of record: LedgerTransaction, now: Date) -> RefundPlan {
        guard record.state == .unbound || record.state == .rejected else {
            return .unchanged("the transaction is \(record.state.rawValue), not credited")
        }
        let (share, noted) = (revocation.share, record.transaction.revokedShare ?? 0)
        guard share > noted else {
            return .unchanged(
                "the transaction is \(record.state.rawValue); Apple's refund of \(percentText(noted)) is noted already")
        }
        let state: LedgerTransaction.State = share >= whole && record.state == .unbound ? .revoked : record.state
        let detail =
            state == .revoked
            ? "Apple refunded all of it before it was credited: it will not be credited"
            : "Apple refunded \(percentText(share)) before it was credited (\(record.state.rawValue)): the credit that "
                + "binds it takes that share back at once"
        return .note(
            RefundNote(
                transactionID: revocation.transactionID, state: state, share: share, date: revocation.date,
                type: revocation.type,
                audit: AuditEvent(
                    at: now, subject: .transaction, subjectID: revocation.transactionID, event: "refund_noted",
                    cause: revocation.cause, detail: detail)))
    }

    /// The plan of Apple's reversal of the refunds of `record`: `revoked` is what its revokes took, net of earlier
    /// restores (positive amounts per currency). A revoked credit gets it back and is credited again; a transaction
    /// Apple revoked before it was credited is unbound again (an order, support or reconciliation may bind it); an
    /// uncredited transaction forgets the refund it noted.
    public static func plan(
        restore record: LedgerTransaction, revoked: Amounts, cause: String, now: Date
    ) -> RefundPlan {
        let id = record.transaction.transactionID
        func audit(_ event: String, _ detail: String) -> AuditEvent {
            AuditEvent(at: now, subject: .transaction, subjectID: id, event: event, cause: cause, detail: detail)
        }
        if record.state == .revoked, let owner = record.ownerID, !record.grants.isEmpty {
            let restored = Grants(revoked.filter { $0 > 0 })
            let given = restored.sorted.map { "\($0.currency)+\($0.amount)" }.joined(separator: " ")
            return .restore(
                RestorePlan(
                    transactionID: id, owner: owner, restored: restored,
                    audit: audit(
                        "restored", "to \(owner) \(given.isEmpty ? "nothing (nothing had been revoked)" : given)")))
        }
        guard record.ownerID == nil, record.transaction.revokedShare != nil, record.state != .credited else {
            return .unchanged(
                record.state == .credited
                    ? "the transaction is credited: nothing was revoked"
                    : "the transaction is \(record.state.rawValue) and was never credited")
        }
        let state: LedgerTransaction.State = record.state == .revoked ? .unbound : record.state
        let detail =
            state == .unbound && record.state == .revoked
            ? "Apple reversed the refund of a transaction it revoked before it was credited: unbound again"
            : "Apple reversed the refund noted on this \(record.state.rawValue) transaction"
        return .note(
            RefundNote(
                transactionID: id, state: state, share: nil, date: nil, type: nil,
                audit: audit("refund_reversed", detail)))
    }
}
