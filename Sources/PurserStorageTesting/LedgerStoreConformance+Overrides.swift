import Foundation
import PurserCore
import PurserStorage
import Testing

extension LedgerStoreConformance {
    /// A refusal stays a refusal until support overrides it; then the transaction is credited by the rules (to the
    /// owner its token names, completing the order), the refusal is cleared, and the audit trail says who overrode it.
    public func creditsARefusedTransactionOnlyWhenSupportOverrides() async throws {
        let noads = ProductDefinition(id: "noads", type: .nonConsumable, grants: Grants(["noads": 1]))
        let order = Order(id: .random(), userID: "wanda", productID: "noads", quantity: 1, createdAt: now)
        try await store.createOrder(order)
        var signed = transaction("t-override", token: order.id)
        signed.productID = "noads"
        let mismatch = RejectionReason.productTypeMismatch("noads", apple: "Consumable", catalog: .nonConsumable)
        let refused = Submission(transaction: signed, assessment: .rejected(mismatch), source: .client("wanda"))
        #expect(try await store.settle(refused, now: now).decision == .rejected(mismatch))

        let support = Submission.Source.support(operator: "li", user: "wanda", reason: "ticket 3: catalog was wrong")
        let plain = Submission(transaction: signed, assessment: .creditable(noads), source: support)
        #expect(try await store.settle(plain, now: now + 1).decision == .rejected(mismatch), "no override, no credit")
        var byClient = plain
        byClient.source = .client("wanda")
        byClient.override = mismatch.code
        #expect(
            try await store.settle(byClient, now: now + 1).decision == .rejected(mismatch), "only support overrides")
        #expect(try await store.balances(of: "wanda") == [:])

        var overriding = plain
        overriding.override = mismatch.code
        let settlement = try await store.settle(overriding, now: now + 2)
        #expect(settlement.creditedNow)
        let record = try #require(try await store.transaction("t-override"))
        #expect(record.state == .credited && record.ownerID == "wanda" && record.rejection == nil)
        #expect(try await store.balances(of: "wanda") == ["noads": 1])
        #expect(try await store.order(order.id)?.state == .delivered)
        #expect(try await store.auditTrail(of: "t-override").map(\.event) == ["rejected", "override", "credited"])
        #expect(try await store.settle(overriding, now: now + 3).creditedNow == false, "credited once")
        #expect(try await store.balances(of: "wanda") == ["noads": 1])
    }
}
