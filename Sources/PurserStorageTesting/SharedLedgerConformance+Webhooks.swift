import Foundation
import PurserCore
import PurserStorage
import PurserWebhooks
import Testing

extension SharedLedgerConformance {
    /// One user's credits settled through every store at once are numbered 1…N without a gap or a repeat; the
    /// events fanned out and claimed through every store at once go out once each.
    public func numbersOneUsersWebhookEventsAcrossStores(perStore: Int = 6) async throws {
        while try await stores[0].dispatchWebhookEvents(to: [], limit: 1_000, now: now) > 0 {}
        let user = UserID(rawValue: "shared-webhooks")
        let count = perStore * stores.count
        var submissions: [Submission] = []
        for index in 0..<count {
            let order = Order(id: .random(), userID: user, productID: "gold60", quantity: 1, createdAt: now)
            try await stores[index % stores.count].createOrder(order)
            submissions.append(
                Submission(
                    transaction: transaction("t-webhook-\(index)", token: order.id), assessment: .creditable(gold),
                    source: .client(user)))
        }
        #expect(try await settleAtOnce(submissions).allSatisfy { $0 == .delivered })
        let route = WebhookRoute(endpoint: "https://shared.example/hooks")
        let dispatched = try await withThrowingTaskGroup(of: Int.self) { group in
            for store in stores {
                group.addTask {
                    var total = 0
                    while true {
                        let taken = try await store.dispatchWebhookEvents(to: [route], limit: 2, now: now)
                        guard taken > 0 else { return total }
                        total += taken
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(dispatched == count, "each event fanned out once")
        let claims = try await withThrowingTaskGroup(of: [WebhookDelivery.Claim].self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask {
                    var claimed: [WebhookDelivery.Claim] = []
                    while true {
                        let batch = try await store.claimWebhookDeliveries(
                            endpoint: route.endpoint, holder: "replica-\(index)", until: now + 30, limit: 3, now: now)
                        guard !batch.isEmpty else { return claimed }
                        claimed += batch
                    }
                }
            }
            return try await group.reduce(into: [WebhookDelivery.Claim]()) { $0 += $1 }
        }
        #expect(claims.count == count, "every delivery claimed once: \(claims.count) of \(count)")
        #expect(Set(claims.map(\.deliveryId)).count == claims.count)
        let sequences = try claims.compactMap {
            try WebhookEvent.decoder.decode(WebhookEvent.self, from: Data($0.body.utf8)).transaction?.sequence
        }
        #expect(sequences.sorted() == (1...Int64(count)).map { $0 }, "the user's events are numbered 1…\(count)")
    }
}
