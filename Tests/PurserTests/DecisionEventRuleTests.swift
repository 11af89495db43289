import Foundation
import PurserCore
import Testing

@testable import Purser

/// The event the app hears for each server answer, without StoreKit, a journal or a server.
@Suite("Decision → event")
struct DecisionEventRuleTests {
    static let local = OrderID("0b9d2c9e-6f3c-4b8e-9f6a-2c1d3e4f5a6b")!
    static let servers = OrderID("1c8e3d0f-7a4d-4c9f-8a7b-3d2e4f5a6b7c")!
    static let transaction = StoreTransaction(
        id: "2000000000000001", productID: "gold60", quantity: 1,
        orderID: nil, purchaseDate: nil)
    static let grants = Grants(["gold": 60])

    func rule(fresh: Bool) -> DecisionEventRule {
        DecisionEventRule(transaction: Self.transaction, orderID: Self.local, fresh: fresh)
    }

    func answer(_ decision: Decision, orderID: OrderID? = servers) -> DecisionResponse {
        DecisionResponse(transactionId: Self.transaction.id, decision: decision, orderId: orderID, grants: Self.grants)
    }

    func delivery(orderID: OrderID? = servers) -> Delivery {
        Delivery(transactionID: Self.transaction.id, productID: "gold60", orderID: orderID, grants: Self.grants)
    }

    func failure(_ reason: PurchaseFailureReason) -> PurchaseEvent {
        .failed(
            PurchaseFailure(
                productID: "gold60", orderID: Self.servers, transactionID: Self.transaction.id,
                reason: reason))
    }

    func pending(_ code: String) -> PurchaseEvent {
        .pending(
            PendingPurchase(
                productID: "gold60", orderID: Self.local, transactionID: Self.transaction.id,
                reason: .server(code)))
    }

    @Test("a credit is delivered when the purchase is fresh, redelivered when it is not")
    func credits() {
        for decision in [Decision.delivered, .alreadyDelivered] {
            #expect(rule(fresh: true).event(for: answer(decision)) == .delivered(delivery()))
            #expect(rule(fresh: false).event(for: answer(decision)) == .redelivered(delivery()))
        }
    }

    @Test("a credit to another account is reported as such, fresh or not", arguments: [true, false])
    func otherAccount(fresh: Bool) {
        #expect(rule(fresh: fresh).event(for: answer(.deliveredToOtherAccount)) == .deliveredToOtherAccount(delivery()))
    }

    @Test("revoked fails as refunded; rejected fails with the server's code", arguments: [true, false])
    func failures(fresh: Bool) {
        #expect(rule(fresh: fresh).event(for: answer(.revoked)) == failure(.refunded))
        let rejected = answer(.rejected(.wrongBundle("b")))
        #expect(rule(fresh: fresh).event(for: rejected) == failure(.rejected("wrong_bundle")))
    }

    @Test("pending waits with the server's code, under the order the client knows", arguments: [true, false])
    func pendingDecision(fresh: Bool) {
        #expect(rule(fresh: fresh).event(for: answer(.pending(.unbound))) == pending("unbound"))
    }

    @Test("the client obeys finish: an unfinished answer is pending whatever its name")
    func obeysFinish() {
        var unfinished = answer(.delivered)
        unfinished.finish = false
        #expect(rule(fresh: true).event(for: unfinished) == pending("delivered"))
    }

    @Test("the client's order stands in when the answer names none")
    func orderFallback() {
        let unnamed = answer(.delivered, orderID: nil)
        #expect(rule(fresh: true).event(for: unnamed) == .delivered(delivery(orderID: Self.local)))
    }

    @Test(
        "a decision this build does not know: rejected when finished, pending when not, with its code",
        arguments: [true, false])
    func unknownDecision(fresh: Bool) {
        var withReason = answer(.rejected(RejectionReason(code: "under_review", message: "held")))
        withReason.decision = "frozen"
        #expect(withReason.outcome == nil)
        #expect(rule(fresh: fresh).event(for: withReason) == failure(.rejected("under_review")))
        var bare = answer(.delivered)
        bare.decision = "frozen"
        #expect(rule(fresh: fresh).event(for: bare) == failure(.rejected("frozen")))
        bare.finish = false
        #expect(rule(fresh: fresh).event(for: bare) == pending("frozen"))
        withReason.finish = false
        #expect(rule(fresh: fresh).event(for: withReason) == pending("under_review"))
    }
}
