import Foundation
import PurserCore
import PurserStorage
import Testing

extension LedgerStoreConformance {
    /// A user's page lists every order and every purchase that is theirs or names one of their orders, the refused
    /// and unbound ones included, and nobody else's; what they own is what stays credited to them.
    public func listsAUsersPurchasesAndWhatTheyOwn() async throws {
        let noads = ProductDefinition(id: "noads", type: .nonConsumable, grants: Grants(["noads": 1]))
        let paid = try await newOrder("uma")
        let credited = Submission(
            transaction: transaction("t-uma-1", token: paid.id), assessment: .creditable(gold), source: .client("uma"))
        #expect(try await store.settle(credited, now: now).decision == .delivered)

        // A non-consumable Apple signed as a consumable: refused, with the order's token.
        let refusedOrder = Order(id: .random(), userID: "uma", productID: "noads", quantity: 1, createdAt: now + 1)
        try await store.createOrder(refusedOrder)
        let mismatch = RejectionReason.productTypeMismatch("noads", apple: "Consumable", catalog: .nonConsumable)
        let refused = Submission(
            transaction: transaction("t-uma-2", token: refusedOrder.id), assessment: .rejected(mismatch),
            source: .notification("n-uma"))
        #expect(try await store.settle(refused, now: now + 2).decision == .rejected(mismatch))

        // Her account's token (written to Apple by an earlier support grant) names no order: unbound.
        let unbound = Submission(
            transaction: transaction("t-uma-3", token: .accountToken(for: "uma")), assessment: .creditable(gold),
            source: .client("uma"))
        #expect(try await store.settle(unbound, now: now + 3).decision == .pending(.unbound))
        let waiting = try await newOrder("uma")

        let other = try await newOrder("vic")
        let others = Submission(
            transaction: transaction("t-vic-1", token: other.id), assessment: .rejected(mismatch),
            source: .client("vic"))
        _ = try await store.settle(others, now: now + 4)

        let page = try await store.purchases(of: "uma", limit: 50)
        #expect(Set(page.transactionIDs) == ["t-uma-1", "t-uma-2", "t-uma-3"])
        #expect(page.transactionIDs.first == "t-uma-3", "newest first: \(page.transactionIDs)")
        #expect(Set(page.orders.map(\.id)) == [paid.id, refusedOrder.id, waiting.id])
        #expect(page.orders.first { $0.id == waiting.id }?.state == .created)
        #expect(try await store.purchases(of: "uma", limit: 1).transactionIDs.count == 1)
        #expect(try await store.purchases(of: "nobody", limit: 50) == UserPurchases(orders: [], transactionIDs: []))

        #expect(try await store.ownedProductIDs(of: "uma") == ["gold60"])
        let noadsOrder = Order(id: .random(), userID: "uma", productID: "noads", quantity: 1, createdAt: now)
        try await store.createOrder(noadsOrder)
        var owned = transaction("t-uma-4", token: noadsOrder.id)
        owned.productID = "noads"
        owned.type = "Non-Consumable"
        let bought = Submission(transaction: owned, assessment: .creditable(noads), source: .client("uma"))
        #expect(try await store.settle(bought, now: now + 5).decision == .delivered)
        #expect(try await store.ownedProductIDs(of: "uma") == ["gold60", "noads"])
        let refund = Revocation(transactionID: "t-uma-4", date: now, type: .refundFull, percentage: 100_000, cause: "r")
        _ = try await store.revoke(refund, now: now + 6)
        #expect(try await store.ownedProductIDs(of: "uma") == ["gold60"], "a refunded purchase is no longer owned")
    }
}
