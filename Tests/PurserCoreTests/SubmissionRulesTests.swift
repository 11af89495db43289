import Foundation
import PurserCore
import Testing

@Suite struct SubmissionRulesTests {
    let now = Date(timeIntervalSince1970: 1_704_067_200)
    let gold = ProductDefinition(id: "gold60", type: .consumable, grants: Grants(["gold": 60]))
    let alice: UserID = "alice"
    let bob: UserID = "bob"

    func order(_ user: UserID, product: String = "gold60", state: Order.State = .created) -> Order {
        Order(id: .random(), userID: user, productID: product, quantity: 1, state: state, createdAt: now)
    }

    func transaction(token: OrderID?, quantity: Int = 1, revoked: Bool = false) -> AppleTransaction {
        AppleTransaction(
            transactionID: "1000", originalTransactionID: "1000", bundleID: "b", productID: "gold60",
            type: "Consumable", quantity: quantity, purchaseDate: now, appAccountToken: token,
            environment: .sandbox, revocationDate: revoked ? now : nil)
    }

    func submission(_ transaction: AppleTransaction, by user: UserID, hint: OrderID? = nil) -> Submission {
        Submission(transaction: transaction, assessment: .creditable(gold), source: .client(user), orderHint: hint)
    }

    @Test func creditsTheOrdersOwnerAndFulfilsTheOrder() throws {
        let order = order(alice)
        let plan = try SubmissionRules.plan(
            submission(transaction(token: order.id, quantity: 3), by: alice),
            existing: nil, order: order, now: now)
        #expect(plan.decision == .delivered)
        #expect(plan.written?.state == .credited)
        #expect(plan.written?.ownerID == alice)
        #expect(plan.written?.grants == Grants(["gold": 180]))
        #expect(plan.fulfilledOrder == order.id)
        #expect(plan.audit.map(\.event) == ["credited", "delivered"])
    }

    @Test func creditsTheOwnerNotTheSubmitter() throws {
        let order = order(alice)
        let plan = try SubmissionRules.plan(
            submission(transaction(token: order.id), by: bob), existing: nil, order: order, now: now)
        #expect(plan.decision == .deliveredToOtherAccount)
        #expect(plan.written?.ownerID == alice)
    }

    @Test func answersRepeatsFromTheRecordWithoutWriting() throws {
        let order = order(alice)
        let first = try SubmissionRules.plan(
            submission(transaction(token: order.id), by: alice), existing: nil, order: order, now: now)
        let record = try #require(first.written)
        let again = try SubmissionRules.plan(
            submission(transaction(token: order.id), by: alice), existing: record, order: order, now: now)
        #expect(again.decision == .alreadyDelivered)
        #expect(again.write == .none)
        #expect(again.audit.isEmpty)
        let byBob = try SubmissionRules.plan(
            submission(transaction(token: order.id), by: bob), existing: record, order: order, now: now)
        #expect(byBob.decision == .deliveredToOtherAccount)
        #expect(byBob.write == .none)
    }

    @Test func usesTheClientsHintOnlyForItsOwnWaitingOrder() throws {
        let mine = order(alice)
        let bound = try SubmissionRules.plan(
            submission(transaction(token: nil), by: alice, hint: mine.id), existing: nil, order: mine, now: now)
        #expect(bound.decision == .delivered)
        #expect(bound.fulfilledOrder == mine.id)

        let stolen = try SubmissionRules.plan(
            submission(transaction(token: nil), by: bob, hint: mine.id), existing: nil, order: mine, now: now)
        #expect(stolen.decision == .pending(.unbound))
        #expect(stolen.written?.state == .unbound)
        #expect(stolen.written?.grants == Grants.none)

        let otherProduct = order(alice, product: "gold120")
        let mismatch = try SubmissionRules.plan(
            submission(transaction(token: nil), by: alice, hint: otherProduct.id),
            existing: nil, order: otherProduct, now: now)
        #expect(mismatch.decision == .pending(.unbound))

        var late = order(alice)
        late.createdAt = now.addingTimeInterval(SubmissionRules.clockSkewTolerance + 60)
        let replayed = try SubmissionRules.plan(
            submission(transaction(token: nil), by: alice, hint: late.id), existing: nil,
            order: late, now: now)
        #expect(replayed.decision == .pending(.unbound), "an order made after the purchase cannot claim it")

        let none = try SubmissionRules.plan(
            submission(transaction(token: nil), by: alice), existing: nil, order: nil, now: now)
        #expect(none.decision == .pending(.unbound))
        #expect(none.decision.finish == false)
    }

    @Test func anOrderHintCountsOnlyWithinTheConfiguredWindowBeforeThePurchase() throws {
        func plan(orderAge: TimeInterval, window: TimeInterval) throws -> LedgerPlan {
            var hinted = order(alice)
            hinted.createdAt = now.addingTimeInterval(-orderAge)
            let submission = Submission(
                transaction: transaction(token: nil), assessment: .creditable(gold), source: .client(alice),
                orderHint: hinted.id, orderHintMaxAge: window)
            return try SubmissionRules.plan(submission, existing: nil, order: hinted, now: now)
        }
        let day: TimeInterval = 86_400
        #expect(Submission.defaultOrderHintMaxAge == day)
        #expect(try plan(orderAge: day - 1, window: day).decision == .delivered)
        #expect(try plan(orderAge: day, window: day).decision == .delivered, "the window's edge still counts")
        let stale = try plan(orderAge: day + 1, window: day)
        #expect(stale.decision == .pending(.unbound), "an order older than the window does not count")
        #expect(stale.written?.state == .unbound)
        #expect(try plan(orderAge: 600, window: 300).decision == .pending(.unbound), "a narrower window")
        #expect(try plan(orderAge: 3 * day, window: 7 * day).decision == .delivered, "a wider one")

        // A token-bound transaction names its order whatever the order's age: the window is for hints only.
        var old = order(alice)
        old.createdAt = now.addingTimeInterval(-30 * day)
        let tokenBound = try SubmissionRules.plan(
            Submission(
                transaction: transaction(token: old.id), assessment: .creditable(gold), source: .client(alice),
                orderHintMaxAge: day),
            existing: nil, order: old, now: now)
        #expect(tokenBound.decision == .delivered)
    }

    @Test func bindsAnUnboundTransactionLater() throws {
        let unbound = try #require(
            try SubmissionRules.plan(
                submission(transaction(token: nil), by: alice), existing: nil,
                order: nil, now: now
            ).written)
        let mine = order(alice)
        let plan = try SubmissionRules.plan(
            submission(transaction(token: nil), by: alice, hint: mine.id),
            existing: unbound, order: mine, now: now)
        #expect(plan.decision == .delivered)
        guard case .bind(let record) = plan.write else {
            Issue.record("expected a bind")
            return
        }
        #expect(record.ownerID == alice)
        #expect(record.grants == Grants(["gold": 60]))
    }

    @Test func anUnknownTokenStaysUnbound() throws {
        let plan = try SubmissionRules.plan(
            submission(transaction(token: .random()), by: alice), existing: nil, order: nil, now: now)
        #expect(plan.decision == .pending(.unbound))
    }

    @Test func aFulfilledOrderStillNamesItsOwner() throws {
        let done = order(alice, state: .delivered)
        let plan = try SubmissionRules.plan(
            submission(transaction(token: done.id), by: bob), existing: nil, order: done, now: now)
        #expect(plan.decision == .deliveredToOtherAccount)
        #expect(plan.fulfilledOrder == nil)
    }

    @Test func neverCreditsRevokedOrRejectedTransactions() throws {
        let order = order(alice)
        let revoked = try SubmissionRules.plan(
            submission(transaction(token: order.id, revoked: true), by: alice),
            existing: nil, order: order, now: now)
        #expect(revoked.decision == .revoked)
        #expect(revoked.written?.state == .revoked)
        #expect(revoked.written?.grants == Grants.none)
        #expect(revoked.fulfilledOrder == nil)

        var rejected = submission(transaction(token: order.id), by: alice)
        rejected.assessment = .rejected(.unknownProduct("gold60"))
        let plan = try SubmissionRules.plan(rejected, existing: nil, order: order, now: now)
        #expect(plan.decision == .rejected(.unknownProduct("gold60")))
        #expect(plan.decision.finish)
        #expect(plan.written?.state == .rejected)
        #expect(plan.fulfilledOrder == nil)
    }

    /// A partial refund leaves the customer the rest: the transaction is credited in full (the caller revokes the
    /// share next); a whole one, of either type, never is.
    @Test func creditsATransactionRefundedInPartButNotOneRefundedWholly() throws {
        let order = order(alice)
        var partly = transaction(token: order.id, revoked: true)
        partly.revocationType = .refundProrated
        partly.revocationPercentage = 40_000
        let plan = try SubmissionRules.plan(submission(partly, by: alice), existing: nil, order: order, now: now)
        #expect(plan.decision == .delivered)
        #expect(plan.written?.grants == Grants(["gold": 60]))
        for type in [RevocationType.refundFull, .familyRevoke] {
            var wholly = partly
            wholly.revocationType = type
            let whole = try SubmissionRules.plan(submission(wholly, by: alice), existing: nil, order: order, now: now)
            #expect(whole.decision == .revoked)
        }
    }

    /// An operator who binds an unbound purchase to the user's waiting order completes that order; an order that is
    /// not the user's, not waiting or for another product is left alone, and the user is credited all the same.
    @Test func aSupportBindingToTheUsersWaitingOrderCompletesIt() throws {
        func granted(_ order: Order, to user: UserID) throws -> LedgerPlan {
            try SubmissionRules.plan(
                Submission(
                    transaction: transaction(token: nil), assessment: .creditable(gold),
                    source: .support(operator: "li", user: user, reason: "paid, got nothing"), orderHint: order.id),
                existing: nil, order: order, now: now)
        }
        let waiting = order(alice)
        let bound = try granted(waiting, to: alice)
        #expect(bound.written?.ownerID == alice)
        #expect(bound.written?.orderID == waiting.id)
        #expect(bound.fulfilledOrder == waiting.id)
        #expect(bound.audit.map(\.event) == ["credited", "delivered"])

        for other in [order(bob), order(alice, state: .delivered), order(alice, product: "gold120")] {
            let plan = try granted(other, to: alice)
            #expect(plan.written?.ownerID == alice)
            #expect(plan.written?.orderID == nil)
            #expect(plan.fulfilledOrder == nil)
        }
    }
}
