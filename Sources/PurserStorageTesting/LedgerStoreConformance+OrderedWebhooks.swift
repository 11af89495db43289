import Foundation
import PurserCore
import PurserStorage
import PurserWebhooks
import Testing

/// Ordered delivery (`webhooks.endpoints[].ordered`): on an ordered endpoint the claim hands out a user's event only
/// once every earlier event of that user is delivered or dead there, and never holds up another user.
extension LedgerStoreConformance {
    /// One user's sequence 2 is not handed out while sequence 1 is pending, failed or claimed, and is once 1 is dead;
    /// 3 once 2 is delivered; another user's events go out meanwhile; an unordered endpoint gets everything at once;
    /// a replayed event goes first again and holds back the user's later event until it is delivered.
    public func claimsAUsersWebhookDeliveriesInSequenceOnAnOrderedEndpoint() async throws {
        try await drainUndispatched()
        for index in 1...3 { try await creditedEvent("t-ordered-u\(index)", user: "ordered-u") }
        for index in 1...2 { try await creditedEvent("t-ordered-v\(index)", user: "ordered-v") }
        let ordered = WebhookRoute(endpoint: "https://ordered.example/hooks")
        let unordered = WebhookRoute(endpoint: "https://unordered.example/hooks")
        #expect(try await store.dispatchWebhookEvents(to: [ordered, unordered], limit: 100, now: now) == 5)
        let (u1, u2, u3) = (
            try await eventID("t-ordered-u1"), try await eventID("t-ordered-u2"), try await eventID("t-ordered-u3")
        )
        let (v1, v2) = (try await eventID("t-ordered-v1"), try await eventID("t-ordered-v2"))
        #expect(
            try await claimIDs(unordered, at: now, ordered: false) == [u1, u2, u3, v1, v2].sorted(), "unordered: all")

        let first = try await claims(ordered, holder: "a", at: now)
        #expect(Set(first.map(\.id)) == [u1, v1], "each user's first event, and nothing after it")
        #expect(try await claimIDs(ordered, at: now + 1).isEmpty, "nothing while the first events are claimed")
        let takenOver = try await claims(ordered, holder: "a", at: now + 31)
        #expect(Set(takenOver.map(\.id)) == [u1, v1], "an expired claim: the first events again, still not 2")
        try await store.finishWebhookAttempts(
            takenOver.map { claim in
                WebhookDelivery.Attempt(
                    deliveryId: claim.deliveryId,
                    outcome: claim.id == u1 ? .failed(retryAt: now + 100) : .delivered,
                    result: claim.id == u1 ? "HTTP 500" : "HTTP 204")
            }, holder: "a", now: now + 32)
        #expect(try await delivery(u1, on: ordered)?.status == .failed)
        let meanwhile = try await claims(ordered, holder: "a", at: now + 50)
        #expect(meanwhile.map(\.id) == [v2], "u's event 2 waits for 1; v's goes on")
        try await finish(meanwhile, .delivered, holder: "a", at: now + 51)
        #expect(try await delivery(u2, on: ordered)?.status == .pending)

        let retry = try await claims(ordered, holder: "b", at: now + 100)
        #expect(retry.map(\.id) == [u1], "the retry of u's event 1, still not 2")
        try await finish(retry, .failed(retryAt: nil), holder: "b", at: now + 101)
        #expect(try await delivery(u1, on: ordered)?.status == .dead)
        let second = try await claims(ordered, holder: "c", at: now + 101)
        #expect(second.map(\.id) == [u2], "event 2 once event 1 is dead, not yet 3")
        try await finish(second, .delivered, holder: "c", at: now + 102)
        let third = try await claims(ordered, holder: "c", at: now + 102)
        #expect(third.map(\.id) == [u3], "event 3 once event 2 is delivered")
        try await finish(third, .delivered, holder: "c", at: now + 103)

        try await creditedEvent("t-ordered-u4", user: "ordered-u")
        #expect(try await store.dispatchWebhookEvents(to: [ordered], limit: 100, now: now + 104) == 1)
        _ = try #require(try await store.replayWebhookEvent(u1, to: [ordered], operator: "ops", now: now + 104))
        let replayed = try await claims(ordered, holder: "d", at: now + 104)
        #expect(replayed.map(\.id) == [u1], "a replayed event takes its place again: before event 4")
        try await finish(replayed, .delivered, holder: "d", at: now + 105)
        #expect(try await claimIDs(ordered, at: now + 105) == [try await eventID("t-ordered-u4")])
    }

    /// On an ordered endpoint that takes only some types, the user's events it does not take hold nothing back;
    /// its own earlier events still do.
    public func skipsEventsAnOrderedEndpointDoesNotTake() async throws {
        try await drainUndispatched()
        try await creditedEvent("t-ordered-w1", user: "ordered-w")
        _ = try await store.revoke(transactionID: "t-ordered-w1", revocationDate: now, cause: "refund", now: now)
        try await creditedEvent("t-ordered-w2", user: "ordered-w")
        let credits = WebhookRoute(endpoint: "https://ordered-credits.example", types: ["transaction.credited"])
        #expect(try await store.dispatchWebhookEvents(to: [credits], limit: 100, now: now) == 3)
        let first = try await claims(credits, holder: "a", at: now)
        #expect(first.map(\.id) == [try await eventID("t-ordered-w1")])
        try await finish(first, .delivered, holder: "a", at: now + 1)
        #expect(
            try await claimIDs(credits, at: now + 1) == [try await eventID("t-ordered-w2")],
            "the revoke (sequence 2) has no delivery here and holds nothing back")
    }

    /// The webhook id of `transactionID`'s event of `type` (once dispatched): drawn at random when it was written.
    func eventID(_ transactionID: String, _ type: WebhookEvent.EventType = .transactionCredited) async throws -> String
    {
        let delivery = try await store.webhookDeliveries(forTransaction: transactionID).first {
            $0.type == type.rawValue
        }
        return try #require(delivery, "no \(type) event of \(transactionID) dispatched").id
    }

    /// `route`'s due deliveries claimed for `holder` at `at` (ordered unless said otherwise), until 30 s later.
    func claims(_ route: WebhookRoute, holder: String, at: Date, ordered: Bool = true) async throws
        -> [WebhookDelivery.Claim]
    {
        try await store.claimWebhookDeliveries(
            endpoint: route.endpoint, ordered: ordered, holder: holder, until: at + 30, limit: 100, now: at)
    }

    /// The ids `claims` hands a fresh holder, sorted.
    func claimIDs(_ route: WebhookRoute, at: Date, ordered: Bool = true) async throws -> [String] {
        try await claims(route, holder: "probe-\(UUID())", at: at, ordered: ordered).map(\.id).sorted()
    }

    /// Records one outcome for every claim of `holder`.
    func finish(_ claims: [WebhookDelivery.Claim], _ outcome: WebhookDelivery.Attempt.Outcome, holder: String, at: Date)
        async throws
    {
        try await store.finishWebhookAttempts(
            claims.map { .init(deliveryId: $0.deliveryId, outcome: outcome, result: "\(outcome)") }, holder: holder,
            now: at)
    }
}
