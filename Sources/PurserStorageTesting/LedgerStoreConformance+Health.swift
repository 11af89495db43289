import Foundation
import PurserCore
import PurserStorage
import Testing

/// What waits in the ledger (`health()`), counted against what earlier checks left: a waiting order, an unbound
/// transaction, a credit's event before and after it is fanned out and delivered.
extension LedgerStoreConformance {
    public func countsWhatWaitsWithItsOldest() async throws {
        try await drainUndispatched()
        let before = try await store.health()
        let order = try await newOrder("hana")
        let unbound = Submission(
            transaction: transaction("t-health-unbound", token: nil), assessment: .creditable(gold),
            source: .client("hana"))
        #expect(try await store.settle(unbound, now: now).decision.name == "pending", "no order binds it")
        let waiting = try await store.health()
        #expect(waiting.waitingOrders.count == before.waitingOrders.count + 1)
        #expect(waiting.unbound.count == before.unbound.count + 1)
        #expect(waiting.waitingOrders.oldest.map { $0 <= now } == true, "the oldest waiting order is known")
        #expect(waiting.unbound.oldest.map { $0 <= now } == true, "the oldest unbound transaction is known")
        #expect(waiting.unbound.oldestAge(at: now + 90) >= 90)

        let credit = Submission(
            transaction: transaction("t-health-credit", token: order.id), assessment: .creditable(gold),
            source: .client("hana"))
        #expect(try await store.settle(credit, now: now + 1).decision == .delivered)
        let credited = try await store.health()
        #expect(credited.waitingOrders.count == before.waitingOrders.count, "the delivered order waits no more")
        #expect(credited.undispatchedEvents.count == 1)
        #expect(credited.undispatchedEvents.oldest == now + 1)

        let route = WebhookRoute(endpoint: "https://hana.example/hooks")
        #expect(try await store.dispatchWebhookEvents(to: [route], limit: 10, now: now + 2) == 1)
        let dispatched = try await store.health()
        #expect(dispatched.undispatchedEvents == LedgerHealth.Backlog(count: 0, oldest: nil))
        #expect(dispatched.undeliveredEvents.count == before.undeliveredEvents.count + 1)
        let claims = try await store.claimWebhookDeliveries(
            endpoint: route.endpoint, holder: "h", until: now + 60, limit: 10, now: now + 2)
        try await store.finishWebhookAttempts(
            claims.map { .init(deliveryId: $0.deliveryId, outcome: .delivered, result: "HTTP 204") }, holder: "h",
            now: now + 3)
        #expect(try await store.health().undeliveredEvents.count == before.undeliveredEvents.count)
    }

    /// Support's queue lists unbound transactions oldest first, and the waiting orders of a product in a window
    /// (who might own one); a bound transaction and a delivered order leave them.
    public func listsTheUnboundQueueAndCandidateOrders() async throws {
        let product = "queue-\(UUID().uuidString.prefix(6))"
        let queueProduct = ProductDefinition(id: product, type: .consumable, grants: Grants(["gold": 1]))
        var ids: [String] = []
        for index in 0..<3 {
            let id = "t-queue-\(product)-\(index)"
            var apple = transaction(id, token: nil)
            apple.productID = product
            let unbound = Submission(transaction: apple, assessment: .creditable(queueProduct), source: .client("ivy"))
            _ = try await store.settle(unbound, now: now + Double(10 - index))  // the last is the oldest
            ids.append(id)
        }
        let queue = try await store.unboundTransactionIDs(limit: 10_000).filter { ids.contains($0) }
        #expect(queue == ids.reversed(), "oldest recorded first")

        let early = Order(id: .random(), userID: "ivy", productID: product, quantity: 1, createdAt: now - 120)
        let late = Order(id: .random(), userID: "jan", productID: product, quantity: 1, createdAt: now - 30)
        let other = Order(id: .random(), userID: "kit", productID: "gold60", quantity: 1, createdAt: now - 30)
        for order in [late, early, other] { try await store.createOrder(order) }
        #expect(
            try await store.waitingOrderIDs(productID: product, createdFrom: now - 600, to: now, limit: 10)
                == [early.id, late.id])
        #expect(
            try await store.waitingOrderIDs(productID: product, createdFrom: now - 60, to: now, limit: 10) == [late.id])
        #expect(
            try await store.waitingOrderIDs(productID: product, createdFrom: now - 600, to: now, limit: 1) == [early.id]
        )
    }

    /// The dashboard's activity counts audit events since a moment and knows the last notification; a
    /// transaction's webhook deliveries are found by its id, and only its own.
    public func countsActivityAndFindsATransactionsDeliveries() async throws {
        try await drainUndispatched()
        let later = now + 5_000
        for id in ["t-activity", "t-activity2"] {
            let order = try await newOrder("lea")
            let credit = Submission(
                transaction: transaction(id, token: order.id), assessment: .creditable(gold), source: .client("lea"))
            #expect(try await store.settle(credit, now: later).decision == .delivered)
        }
        let notification = NotificationRecord(
            uuid: "n-activity", type: "ONE_TIME_CHARGE", subtype: nil, transactionID: "t-activity",
            environment: "Sandbox", signedDate: later - 10, receivedAt: later)
        _ = try await store.recordNotification(notification)
        #expect(try await store.transactionIDs(ownedBy: "lea", limit: 10) == ["t-activity2", "t-activity"])
        #expect(try await store.transactionIDs(ownedBy: "lea", limit: 1) == ["t-activity2"])
        #expect(try await store.transactionIDs(ownedBy: "nobody-at-all", limit: 10).isEmpty)
        let activity = try await store.activity(since: later - 1)
        #expect(activity.eventsByKind["credited"] == 2)
        #expect(activity.lastNotificationReceivedAt == later)
        #expect(activity.lastNotificationSignedAt == later - 10)
        #expect(try await store.activity(since: later + 1).eventsByKind.isEmpty)

        let route = WebhookRoute(endpoint: "https://lea.example/hooks")
        #expect(try await store.dispatchWebhookEvents(to: [route], limit: 10, now: later) == 2)
        let deliveries = try await store.webhookDeliveries(forTransaction: "t-activity")
        #expect(deliveries.map(\.type) == ["transaction.credited"])
        #expect(deliveries.first.map { Self.isRandomWebhookID($0.id) } == true)
        #expect(try await store.webhookDeliveries(forTransaction: "t-none").isEmpty)
    }
}
