import Foundation

/// The submission decision rules as a pure function: given a submission and what the ledger holds, what to write and
/// what to answer. Stores call it inside the database transaction that applies the plan, so every backend decides
/// alike and the rules are tested without I/O.
public enum SubmissionRules {
    /// Plans the decision for `submission`.
    /// - Parameters:
    ///   - existing: the ledger's record of the same `transactionID`, if any.
    ///   - order: the order named by `submission.orderToLookUp`, if it exists.
    ///   - balances: the balances of the owner this plan credits, before it, when the store read them because an
    ///     earlier plan asked (`LedgerPlan.balancesNeeded`); `nil` otherwise.
    /// - Throws: `AmountError` when the product's grants times the signed quantity leave `Int64`; nothing is written.
    public static func plan(
        _ submission: Submission, existing: LedgerTransaction?, order: Order?, balances: [String: Int64]? = nil,
        now: Date
    ) throws(AmountError) -> LedgerPlan {
        var plan: LedgerPlan
        if let existing {
            plan = try planRepeat(submission, existing: existing, order: order, now: now)
        } else {
            plan = try planFirst(submission, order: order, now: now)
        }
        plan.source = submission.source
        try revokeRefundedShare(of: &plan, submission: submission, existing: existing, balances: balances, now: now)
        plan.appAccountTokenForApple = tokenForApple(plan, existing: existing)
        if let code = submission.override, plan.credits, existing?.state != .credited {
            plan.audit.insert(
                AuditEvent(
                    at: now, subject: .transaction, subjectID: submission.transaction.transactionID,
                    event: "override", cause: submission.source.description,
                    detail: "\(code) overridden: "
                        + (existing?.rejection?.message ?? "the operator credits it as the catalog says")),
                at: 0)
        }
        return plan
    }

    /// The token Apple's record should carry after a credit that binds a transaction (see
    /// `LedgerPlan.appAccountTokenForApple`): the order's id, or the account's token when no order binds it.
    static func tokenForApple(_ plan: LedgerPlan, existing: LedgerTransaction?) -> OrderID? {
        guard plan.credits, let written = plan.written, existing?.state != .credited, let owner = written.ownerID,
            written.transaction.environment.isKnownToApple
        else { return nil }
        let token = written.orderID ?? OrderID.accountToken(for: owner)
        return token == written.transaction.appAccountToken ? nil : token
    }

    /// A transaction the ledger has not seen: rejected, revoked, unbound or credited.
    private static func planFirst(_ submission: Submission, order: Order?, now: Date) throws(AmountError)
        -> LedgerPlan
    {
        let transaction = submission.transaction
        let cause = submission.source.description
        func record(
            _ state: LedgerTransaction.State, owner: UserID? = nil, orderID: OrderID? = nil,
            rejection: RejectionReason? = nil, grants: Grants = .none
        ) -> LedgerTransaction {
            LedgerTransaction(
                transaction: transaction, state: state, ownerID: owner, orderID: orderID,
                rejection: rejection, grants: grants, recordedAt: now)
        }
        func audit(_ event: String, _ detail: String = "") -> AuditEvent {
            AuditEvent(
                at: now, subject: .transaction, subjectID: transaction.transactionID, event: event,
                cause: cause, detail: detail)
        }

        let product: ProductDefinition
        switch submission.assessment {
        case .rejected(let reason):
            return LedgerPlan(
                decision: .rejected(reason), write: .insert(record(.rejected, rejection: reason)),
                audit: [audit("rejected", reason.code)])
        case .creditable(let creditable):
            product = creditable
        }
        // A partial refund leaves the customer the rest: credited here, and the share revoked in the same plan.
        if let share = transaction.revokedShare, share >= RefundRules.whole {
            return LedgerPlan(
                decision: .revoked, write: .insert(record(.revoked)),
                audit: [audit("recorded_revoked", "Apple revoked it before it was credited")])
        }
        guard let binding = owner(of: submission, order: order) else {
            return LedgerPlan(
                decision: .pending(.unbound), write: .insert(record(.unbound)),
                audit: [audit("recorded_unbound", unboundDetail(submission, order: order))])
        }
        let grants = try product.grants.times(transaction.quantity)
        let credited = record(.credited, owner: binding.owner, orderID: binding.order?.id, grants: grants)
        return LedgerPlan(
            decision: binding.owner == submission.source.submitter ? .delivered : .deliveredToOtherAccount,
            write: .insert(credited),
            fulfilledOrder: binding.fulfils ? binding.order?.id : nil,
            audit: creditAudit(credited, binding: binding, cause: cause, now: now)
        )
    }

    /// A transaction the ledger has seen before: settled ones answer the same way again; unbound ones may bind now.
    private static func planRepeat(
        _ submission: Submission, existing: LedgerTransaction, order: Order?, now: Date
    ) throws(AmountError) -> LedgerPlan {
        let submitter = submission.source.submitter
        switch existing.state {
        case .credited:
            return LedgerPlan(
                decision: existing.ownerID == submitter ? .alreadyDelivered : .deliveredToOtherAccount,
                write: .none)
        case .rejected:
            let reason = existing.rejection ?? RejectionReason(code: "rejected", message: "rejected earlier")
            if case .support = submission.source, let code = submission.override, code == reason.code {
                // An operator overrides the refusal: credited as an unbound transaction would be.
                var unbound = existing
                unbound.state = .unbound
                unbound.rejection = nil
                return try planRepeat(submission, existing: unbound, order: order, now: now)
            }
            return LedgerPlan(decision: .rejected(reason), write: .none)
        case .revoked:
            return LedgerPlan(decision: .revoked, write: .none)
        case .unbound:
            guard case .creditable(let product) = submission.assessment,
                let binding = owner(of: submission, order: order)
            else {
                return LedgerPlan(decision: .pending(.unbound), write: .none)
            }
            var credited = existing
            credited.state = .credited
            credited.ownerID = binding.owner
            credited.orderID = binding.order?.id
            credited.grants = try product.grants.times(existing.transaction.quantity)
            // Apple's refund noted while it was unbound is the revoke's to write, not the credit's.
            credited.transaction.revocationDate = nil
            credited.transaction.revocationType = nil
            credited.transaction.revocationPercentage = nil
            return LedgerPlan(
                decision: binding.owner == submitter ? .delivered : .deliveredToOtherAccount,
                write: .bind(credited),
                fulfilledOrder: binding.fulfils ? binding.order?.id : nil,
                audit: creditAudit(credited, binding: binding, cause: submission.source.description, now: now)
            )
        }
    }

    struct Binding {
        var owner: UserID
        var order: Order?
        /// Whether the order moves to `delivered` with this transaction.
        var fulfils: Bool
    }

    /// The owner rule: Apple's signed `appAccountToken` names the order, whose account is the owner, whoever
    /// submits. Without a token, the client's order hint counts only if that order is the submitter's own, for the
    /// same product, still waiting, and created before Apple charged (so a replayed receipt cannot feed an order
    /// made afterwards) but no more than `orderHintMaxAge` before (so an order left waiting for days cannot be fed
    /// by any later token-less purchase of the product). Otherwise nobody: the transaction stays unbound.
    static func owner(of submission: Submission, order: Order?) -> Binding? {
        let transaction = submission.transaction
        if case .support(_, let user, _) = submission.source,
            transaction.appAccountToken == nil || order == nil
        {
            // An operator settles what no order can: only transactions without a matching token-bound order. Bound
            // to the user's waiting order for the product (the operator's hint), it completes that order too.
            guard transaction.appAccountToken == nil, let order, order.id == submission.orderHint,
                order.userID == user, order.state == .created, order.productID == transaction.productID
            else { return Binding(owner: user, order: nil, fulfils: false) }
            return Binding(owner: user, order: order, fulfils: true)
        }
        guard let order, order.id == submission.orderToLookUp else { return nil }
        let waiting = order.state == .created && order.productID == transaction.productID
        if transaction.appAccountToken != nil {
            // Apple's charge wins over the app's cancel: a token-bound payment for a cancelled order delivers it.
            let open = waiting || (order.state == .cancelled && order.productID == transaction.productID)
            return Binding(owner: order.userID, order: order, fulfils: open)
        }
        guard waiting, order.userID == submission.source.submitter,
            order.createdAt <= transaction.purchaseDate.addingTimeInterval(clockSkewTolerance),
            order.createdAt >= transaction.purchaseDate.addingTimeInterval(-submission.orderHintMaxAge)
        else { return nil }
        return Binding(owner: order.userID, order: order, fulfils: true)
    }

    /// How far Purser's clock and Apple's may disagree when an order is compared with a purchase date.
    public static let clockSkewTolerance: TimeInterval = 60

    private static func unboundDetail(_ submission: Submission, order: Order?) -> String {
        if let token = submission.transaction.appAccountToken {
            return order == nil ? "appAccountToken \(token) names no order" : "order \(token) cannot take it"
        }
        if let hint = submission.orderHint {
            return
                "no appAccountToken; order hint \(hint) is not the submitter's waiting order for this product, made "
                + "before the purchase and within \(Int(submission.orderHintMaxAge)) seconds of it"
        }
        return "no appAccountToken and no order hint"
    }

    private static func creditAudit(
        _ credited: LedgerTransaction, binding: Binding, cause: String, now: Date
    ) -> [AuditEvent] {
        let grantText = credited.grants.sorted.map { "\($0.currency)+\($0.amount)" }.joined(separator: " ")
        var events = [
            AuditEvent(
                at: now, subject: .transaction, subjectID: credited.transaction.transactionID,
                event: "credited", cause: cause,
                detail: "to \(binding.owner) \(grantText)" + (binding.order.map { " via order \($0.id)" } ?? ""))
        ]
        if binding.fulfils, let order = binding.order {
            events.append(
                AuditEvent(
                    at: now, subject: .order, subjectID: order.id.description, event: "delivered",
                    cause: cause, detail: "transaction \(credited.transaction.transactionID)"))
        }
        return events
    }
}
