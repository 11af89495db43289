import Foundation
import PurserCore
import PurserStorage
import Testing

/// The behaviour every `LedgerStore` must show. Each backend's suite runs these checks against a fresh store.
struct LedgerStoreConformance {
    let store: any LedgerStore
    let now = Date(timeIntervalSince1970: 1_704_067_200)
    let gold = Product(id: "gold60", type: .consumable, grants: Grants(["gold": 60]))

    func transaction(_ id: String, token: OrderID?) -> AppleTransaction {
        AppleTransaction(transactionID: id, originalTransactionID: id, bundleID: "b", productID: "gold60", type: "Consumable",
                         quantity: 1, purchaseDate: now, appAccountToken: token, environment: .sandbox)
    }

    func newOrder(_ user: UserID) async throws -> Order {
        let order = Order(id: .random(), userID: user, productID: "gold60", quantity: 1, createdAt: now)
        try await store.createOrder(order)
        return order
    }

    func creditsOnceAndRecordsEverything() async throws {
        let order = try await newOrder("alice")
        let submission = Submission(transaction: transaction("t1", token: order.id), assessment: .creditable(gold),
                                    source: .client("alice"))
        let first = try await store.settle(submission, now: now)
        #expect(first.decision == .delivered)
        let second = try await store.settle(submission, now: now)
        #expect(second.decision == .alreadyDelivered)
        var byBob = submission
        byBob.source = .client("bob")
        #expect(try await store.settle(byBob, now: now).decision == .deliveredToOtherAccount)

        #expect(try await store.balances(of: "alice") == ["gold": 60])
        #expect(try await store.balances(of: "bob") == [:])
        let stored = try #require(try await store.transaction("t1"))
        #expect(stored.state == .credited)
        #expect(stored.ownerID == "alice")
        #expect(stored.grants == Grants(["gold": 60]))
        #expect(stored.transaction == submission.transaction)
        let fulfilled = try #require(try await store.order(order.id))
        #expect(fulfilled.state == .delivered)
        #expect(fulfilled.transactionID == "t1")
        #expect(try await store.auditTrail(of: "t1").map(\.event) == ["credited"])
        #expect(try await store.auditTrail(of: order.id.description).map(\.event) == ["delivered"])
    }

    func settlesConcurrentSubmissionsOfOneTransactionOnce() async throws {
        let order = try await newOrder("carol")
        let submission = Submission(transaction: transaction("t-race", token: order.id), assessment: .creditable(gold),
                                    source: .client("carol"))
        let decisions = try await withThrowingTaskGroup(of: Decision.self) { group in
            for _ in 0..<50 { group.addTask { try await store.settle(submission, now: now).decision } }
            return try await group.reduce(into: [Decision]()) { $0.append($1) }
        }
        #expect(decisions.filter { $0 == .delivered }.count == 1)
        #expect(decisions.filter { $0 == .alreadyDelivered }.count == 49)
        #expect(try await store.balances(of: "carol") == ["gold": 60])
    }

    func keepsRejectedAndUnboundTransactionsWithoutCredit() async throws {
        let rejected = Submission(transaction: transaction("t-bad", token: nil),
                                  assessment: .rejected(.unknownProduct("gold60")), source: .client("dave"))
        #expect(try await store.settle(rejected, now: now).decision == .rejected(.unknownProduct("gold60")))
        #expect(try await store.transaction("t-bad")?.rejection?.code == "unknown_product")

        let unbound = Submission(transaction: transaction("t-free", token: nil), assessment: .creditable(gold), source: .client("dave"))
        #expect(try await store.settle(unbound, now: now).decision == .pending(.unbound))
        #expect(try await store.balances(of: "dave") == [:])

        let order = try await newOrder("dave")
        var hinted = unbound
        hinted.orderHint = order.id
        #expect(try await store.settle(hinted, now: now).decision == .delivered)
        #expect(try await store.balances(of: "dave") == ["gold": 60])
        #expect(try await store.auditTrail(of: "t-free").map(\.event) == ["recorded_unbound", "credited"])
    }

    func refusesDuplicateOrders() async throws {
        let order = try await newOrder("erin")
        await #expect(throws: StorageError.self) { try await store.createOrder(order) }
    }
}
