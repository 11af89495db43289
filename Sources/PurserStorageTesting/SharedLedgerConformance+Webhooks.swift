import Foundation
import PurserCore
import PurserStorage
import PurserWebhooks
import Synchronization
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

extension SharedLedgerConformance {
    /// On an ordered endpoint, every store claiming at once (and reporting each claim delivered after a moment)
    /// hands out each user's events one at a time and in `sequence` order: no store claims a user's next event while
    /// another still holds the previous one.
    public func claimsOneUsersEventsInSequenceAcrossStores(perUser: Int = 6) async throws {
        while try await stores[0].dispatchWebhookEvents(to: [], limit: 1_000, now: now) > 0 {}
        let users: [UserID] = ["shared-ordered-a", "shared-ordered-b"]
        for index in 0..<perUser {
            for user in users {
                let store = stores[index % stores.count]
                let order = Order(id: .random(), userID: user, productID: "gold60", quantity: 1, createdAt: now)
                try await store.createOrder(order)
                let submission = Submission(
                    transaction: transaction("t-\(user.rawValue)-\(index)", token: order.id),
                    assessment: .creditable(gold), source: .client(user))
                #expect(try await store.settle(submission, now: now).decision == .delivered)
            }
        }
        let route = WebhookRoute(endpoint: "https://shared-ordered.example/hooks")
        #expect(try await stores[1].dispatchWebhookEvents(to: [route], limit: 1_000, now: now) == perUser * 2)
        let log = OrderedClaimLog()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask {
                    var rounds = 0
                    while log.count < perUser * users.count, rounds < 5_000 {
                        rounds += 1
                        let batch = try await store.claimWebhookDeliveries(
                            endpoint: route.endpoint, ordered: true, holder: "replica-\(index)", until: now + 30,
                            limit: 4, now: now)
                        let events = try batch.map { claim in
                            try #require(
                                try WebhookEvent.decoder.decode(WebhookEvent.self, from: Data(claim.body.utf8))
                                    .transaction)
                        }
                        for event in events { log.claimed(user: event.userId, sequence: event.sequence) }
                        try await Task.sleep(for: .milliseconds(2))  // the post
                        for event in events { log.finished(user: event.userId) }
                        try await store.finishWebhookAttempts(
                            batch.map { .init(deliveryId: $0.deliveryId, outcome: .delivered, result: "HTTP 204") },
                            holder: "replica-\(index)", now: now)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(
            log.overlaps.isEmpty, "a user's next event was claimed while the previous one was held: \(log.overlaps)")
        for user in users {
            #expect(
                log.sequences(of: user.rawValue) == (1...Int64(perUser)).map { $0 },
                "\(user.rawValue)'s events claimed once each, in sequence order")
        }
    }
}

/// What the stores handed out, in the order they did, and every claim of a user's event while an earlier one of that
/// user was still held.
private final class OrderedClaimLog: Sendable {
    private struct State {
        var claims: [(user: String, sequence: Int64)] = []
        var held: Set<String> = []
        var overlaps: [String] = []
    }

    private let state = Mutex(State())

    var count: Int { state.withLock { $0.claims.count } }
    var overlaps: [String] { state.withLock { $0.overlaps } }

    func claimed(user: String, sequence: Int64) {
        state.withLock { state in
            state.claims.append((user, sequence))
            if !state.held.insert(user).inserted { state.overlaps.append("\(user) \(sequence)") }
        }
    }

    func finished(user: String) { _ = state.withLock { $0.held.remove(user) } }

    func sequences(of user: String) -> [Int64] {
        state.withLock { $0.claims.filter { $0.user == user }.map(\.sequence) }
    }
}
