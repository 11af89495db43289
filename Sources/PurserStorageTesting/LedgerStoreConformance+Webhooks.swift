import Foundation
import PurserCore
import PurserStorage
import PurserWebhooks
import Testing

/// The webhook outbox: an event with every credit, revoke and restore, fanned out to the routes that take it,
/// claimed by one holder at a time, retried, dead-lettered and replayed. Each check first fans out (to nowhere)
/// whatever earlier checks left, and uses its own users and endpoints.
extension LedgerStoreConformance {
    /// A credit, its revoke and its restore write three events for the owner, numbered 1, 2, 3, whose bodies carry
    /// the transaction, the signed grants, the credit's cause and the refund's share.
    public func writesAWebhookEventWithEveryCreditRevokeAndRestore() async throws {
        try await drainUndispatched()
        let order = try await newOrder("wendy")
        let submission = Submission(
            transaction: transaction("t-wendy", token: order.id), assessment: .creditable(gold),
            source: .notification("n-wendy"))
        #expect(try await store.settle(submission, now: now).decision == .deliveredToOtherAccount)
        _ = try await store.settle(submission, now: now)
        _ = try await store.revoke(transactionID: "t-wendy", revocationDate: now, cause: "refund", now: now + 1)
        _ = try await store.restore(transactionID: "t-wendy", cause: "reversed", now: now + 2)
        let route = WebhookRoute(endpoint: "https://wendy.example/hooks")
        #expect(try await store.dispatchWebhookEvents(to: [route], limit: 100, now: now + 3) == 3)
        #expect(try await store.dispatchWebhookEvents(to: [route], limit: 100, now: now + 3) == 0)
        let claims = try await store.claimWebhookDeliveries(
            endpoint: route.endpoint, holder: "w", until: now + 60, limit: 10, now: now + 3)
        #expect(claims.count == 3 && claims.allSatisfy { Self.isRandomWebhookID($0.id) }, "\(claims.map(\.id))")
        #expect(Set(claims.map(\.id)).count == 3)
        let events = try claims.map { try WebhookEvent.decoder.decode(WebhookEvent.self, from: Data($0.body.utf8)) }
        #expect(events.map(\.type) == [.transactionCredited, .transactionRevoked, .transactionRestored])
        #expect(claims.map(\.type) == events.map(\.type.rawValue))
        let data = events.compactMap(\.transaction)
        #expect(data.map(\.sequence) == [1, 2, 3])
        #expect(data.map(\.grants) == [["gold": 60], ["gold": -60], ["gold": 60]])
        #expect(data.map(\.userId) == ["wendy", "wendy", "wendy"])
        #expect(data.map(\.cause) == [.notification, nil, nil])
        #expect(data.map(\.share) == [nil, 1, nil])
        #expect(data.first?.orderId == order.id.description)
        #expect(data.first?.productId == "gold60")
        #expect(data.first?.environment == "Sandbox")
        #expect(events.map(\.timestamp) == [now, now + 1, now + 2])
    }

    /// Many holders claiming one endpoint's deliveries at once get disjoint sets that cover them all; a claim holds
    /// until it expires and is then taken over; another endpoint's deliveries are not handed out.
    public func claimsEachWebhookDeliveryForOneHolderAtATime() async throws {
        try await drainUndispatched()
        for index in 0..<24 {
            try await creditedEvent("t-claim-\(index)", user: UserID(rawValue: "claimer-\(index % 3)"))
        }
        let routes = [WebhookRoute(endpoint: "https://a.example/hooks"), WebhookRoute(endpoint: "https://b.example")]
        #expect(try await store.dispatchWebhookEvents(to: routes, limit: 10, now: now) == 10)
        #expect(try await store.dispatchWebhookEvents(to: routes, limit: 100, now: now) == 14)
        let claimed = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for racer in 0..<8 {
                group.addTask {
                    try await store.claimWebhookDeliveries(
                        endpoint: "https://a.example/hooks", holder: "racer-\(racer)", until: now + 30, limit: 4,
                        now: now
                    ).map(\.deliveryId)
                }
            }
            return try await group.reduce(into: [Int64]()) { $0 += $1 }
        }
        #expect(claimed.count == 24, "each of the 24 deliveries claimed once: \(claimed.count)")
        #expect(Set(claimed).count == claimed.count, "no delivery went to two holders")
        #expect(
            try await store.claimWebhookDeliveries(
                endpoint: "https://a.example/hooks", holder: "late", until: now + 60, limit: 100, now: now + 29
            ).isEmpty, "claims hold until they expire")
        let takenOver = try await store.claimWebhookDeliveries(
            endpoint: "https://a.example/hooks", holder: "late", until: now + 90, limit: 100, now: now + 30)
        #expect(takenOver.count == 24, "a dead holder's claims are taken over once expired")
        let other = try await store.claimWebhookDeliveries(
            endpoint: "https://b.example", holder: "b", until: now + 30, limit: 100, now: now)
        #expect(other.count == 24)
        #expect(Set(other.map(\.id)) == Set(takenOver.map(\.id)), "the same events, to the other endpoint")
    }

    /// A failed attempt reschedules the delivery; only its holder may record a failure; the last failure
    /// dead-letters it; a 2xx delivers it whoever reports it; the summary counts it all.
    public func retriesAndDeadLettersWebhookDeliveries() async throws {
        try await drainUndispatched()
        try await creditedEvent("t-retry", user: "retry-user")
        let route = WebhookRoute(endpoint: "https://retry.example/hooks")
        _ = try await store.dispatchWebhookEvents(to: [route], limit: 10, now: now)
        func claim(_ holder: String, at: Date) async throws -> WebhookDelivery.Claim? {
            try await store.claimWebhookDeliveries(
                endpoint: route.endpoint, holder: holder, until: at + 30, limit: 1, now: at
            ).first
        }
        let first = try #require(try await claim("a", at: now))
        #expect(first.attempts == 0)
        try await store.finishWebhookAttempts(
            [.init(deliveryId: first.deliveryId, outcome: .failed(retryAt: now + 5), result: "HTTP 500")],
            holder: "someone-else", now: now)
        #expect(try await delivery(first.id, on: route)?.status == .pending, "a failure by a non-holder is ignored")
        try await store.finishWebhookAttempts(
            [.init(deliveryId: first.deliveryId, outcome: .failed(retryAt: now + 5), result: "HTTP 500")],
            holder: "a", now: now)
        let failed = try #require(try await delivery(first.id, on: route))
        #expect(failed.status == .failed)
        #expect(failed.attempts == 1)
        #expect(failed.lastResult == "HTTP 500")
        #expect(failed.nextAttemptAt == now + 5)
        #expect(try await claim("b", at: now + 4) == nil, "not due before the retry")
        let second = try #require(try await claim("b", at: now + 5))
        #expect(second.attempts == 1)
        try await store.finishWebhookAttempts(
            [.init(deliveryId: second.deliveryId, outcome: .failed(retryAt: nil), result: "timed out")],
            holder: "b", now: now + 6)
        #expect(try await delivery(first.id, on: route)?.status == .dead)
        #expect(try await claim("c", at: now + 86_400) == nil, "a dead delivery is never retried by itself")
        #expect(try await store.webhookDeliveries(status: .dead, limit: 10).contains { $0.id == first.id })
        let summary = try await store.webhookSummary()
        #expect(summary.dead >= 1)
        #expect(summary.undispatched == 0)
        try await store.finishWebhookAttempts(
            [.init(deliveryId: second.deliveryId, outcome: .delivered, result: "HTTP 204")], holder: "late", now: now)
        #expect(try await delivery(first.id, on: route)?.status == .delivered, "a 2xx counts whoever reports it")
        #expect(try await delivery(first.id, on: route)?.attempts == 3)
    }

    /// A claim its holder gives back unposted (it is shutting down) is claimable by another holder at once, with no
    /// attempt counted; only the holder can give it back.
    public func releasesAnUnpostedWebhookClaim() async throws {
        try await drainUndispatched()
        try await creditedEvent("t-release", user: "release-user")
        let route = WebhookRoute(endpoint: "https://release.example/hooks")
        _ = try await store.dispatchWebhookEvents(to: [route], limit: 10, now: now)
        let claim = try #require(
            try await store.claimWebhookDeliveries(
                endpoint: route.endpoint, holder: "leaving", until: now + 60, limit: 1, now: now
            ).first)
        let released = WebhookDelivery.Attempt(deliveryId: claim.deliveryId, outcome: .released, result: "shutdown")
        try await store.finishWebhookAttempts([released], holder: "someone-else", now: now)
        #expect(
            try await store.claimWebhookDeliveries(
                endpoint: route.endpoint, holder: "next", until: now + 60, limit: 1, now: now + 1
            ).isEmpty, "only the holder gives a claim back")
        try await store.finishWebhookAttempts([released], holder: "leaving", now: now)
        let next = try await store.claimWebhookDeliveries(
            endpoint: route.endpoint, holder: "next", until: now + 60, limit: 1, now: now + 1)
        #expect(next.map(\.deliveryId) == [claim.deliveryId], "taken over at once, not after the claim expires")
        #expect(next.first?.attempts == 0, "a release is not an attempt")
    }

    /// A replay makes the event's deliveries pending again (from dead or delivered), creates them for routes that
    /// had none, and is audited with the operator; an unknown event is `nil`.
    public func replaysAWebhookEventWithAnAuditRecord() async throws {
        try await drainUndispatched()
        try await creditedEvent("t-replay", user: "replay-user")
        let old = WebhookRoute(endpoint: "https://old.example/hooks")
        _ = try await store.dispatchWebhookEvents(to: [old], limit: 10, now: now)
        let claim = try #require(
            try await store.claimWebhookDeliveries(
                endpoint: old.endpoint, holder: "a", until: now + 30, limit: 1, now: now
            ).first)
        try await store.finishWebhookAttempts(
            [.init(deliveryId: claim.deliveryId, outcome: .failed(retryAt: nil), result: "HTTP 410")], holder: "a",
            now: now)
        let new = WebhookRoute(endpoint: "https://new.example/hooks")
        let revokedOnly = WebhookRoute(endpoint: "https://refunds.example", types: ["transaction.revoked"])
        let replayed = try #require(
            try await store.replayWebhookEvent(claim.id, to: [old, new, revokedOnly], operator: "ops", now: now + 60))
        #expect(replayed.map(\.endpoint) == [old.endpoint, new.endpoint])
        #expect(replayed.allSatisfy { $0.status == .pending && $0.attempts == 0 && $0.nextAttemptAt == now + 60 })
        let audit = try await store.auditTrail(of: claim.id)
        #expect(audit.map(\.event) == ["replayed"])
        #expect(audit.first?.subject == .webhook)
        #expect(audit.first?.cause == "support by ops")
        #expect(audit.first?.detail.contains("was dead after 1 attempts") == true)
        #expect(
            try await store.claimWebhookDeliveries(
                endpoint: new.endpoint, holder: "b", until: now + 90, limit: 5, now: now + 60
            ).map(\.id) == [claim.id])
        #expect(try await store.replayWebhookEvent("evt_nothing", to: [old], operator: "ops", now: now) == nil)
    }

    /// Fans out (to no endpoint) every event earlier checks wrote, so a check sees only its own.
    func drainUndispatched() async throws {
        while try await store.dispatchWebhookEvents(to: [], limit: 1_000, now: now) > 0 {}
    }

    /// A credit for `user`, with its outbox event, recorded at `at` (default `now`).
    func creditedEvent(_ id: String, user: UserID, at: Date? = nil) async throws {
        let order = try await newOrder(user)
        let submission = Submission(
            transaction: transaction(id, token: order.id), assessment: .creditable(gold), source: .client(user))
        #expect(try await store.settle(submission, now: at ?? now).decision == .delivered)
    }

    /// The delivery of event `id` to `route`, as listed.
    func delivery(_ id: String, on route: WebhookRoute) async throws -> WebhookDelivery? {
        try await store.webhookDeliveries(status: nil, limit: 1_000).first {
            $0.id == id && $0.endpoint == route.endpoint
        }
    }
}

extension LedgerStoreConformance {
    /// Whether `id` is a webhook id as ledgers draw them: `evt_` and 32 lowercase hex digits (128 random bits).
    public static func isRandomWebhookID(_ id: String) -> Bool {
        id.hasPrefix("evt_") && id.count == 36 && id.dropFirst(4).allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }
}
