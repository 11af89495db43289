import Foundation
import PurserCore
import PurserStorage
import PurserWebhooks
import Testing

/// Partial refunds: a revoke takes `floor(grant × share / 100000)` of the cumulative share less what earlier
/// revokes took, a repeat takes nothing, a restore gives back exactly the sum, and without negative balances a
/// revoke stops at zero and records the shortfall.
extension LedgerStoreConformance {
    func prorated(_ id: String, _ percentage: Int, allowNegativeBalance: Bool = true) -> Revocation {
        Revocation(
            transactionID: id, date: now, type: .refundProrated, percentage: percentage, cause: "refund \(percentage)",
            allowNegativeBalance: allowNegativeBalance)
    }

    /// The outbox events written since the last drain, decoded.
    func refundEvents(endpoint: String) async throws -> [WebhookEvent.Transaction] {
        let route = WebhookRoute(endpoint: endpoint)
        _ = try await store.dispatchWebhookEvents(to: [route], limit: 100, now: now + 10)
        let claims = try await store.claimWebhookDeliveries(
            endpoint: endpoint, holder: "refunds", until: now + 60, limit: 100, now: now + 10)
        return try claims.compactMap {
            try WebhookEvent.decoder.decode(WebhookEvent.self, from: Data($0.body.utf8)).transaction
        }
    }

    /// 50% then 80% (Apple's cumulative percentage) of 60 gold revokes 30 then 18; the same share again, or a
    /// smaller one, changes nothing; the reversal gives back 48 once.
    public func revokesAProratedShareCumulativelyAndRestoresExactlyIt() async throws {
        try await drainUndispatched()
        try await creditedEvent("t-pat", user: "pat")
        let half = try await store.revoke(prorated("t-pat", 50_000), now: now + 1)
        #expect(half == .applied(owner: "pat", grants: Grants(["gold": 30]), shortfall: .none, share: 50_000))
        #expect(
            try await store.revoke(prorated("t-pat", 50_000), now: now + 2)
                == .unchanged(
                    "50.000% already revoked; Apple's share is 50.000%"))
        if case .applied = try await store.revoke(prorated("t-pat", 20_000), now: now + 2) {
            Issue.record("a smaller share revoked again")
        }
        #expect(try await store.balances(of: "pat") == ["gold": 30])
        let more = try await store.revoke(prorated("t-pat", 80_000), now: now + 3)
        #expect(more == .applied(owner: "pat", grants: Grants(["gold": 18]), shortfall: .none, share: 80_000))
        #expect(try await store.balances(of: "pat") == ["gold": 12])
        let revoked = try #require(try await store.transaction("t-pat"))
        #expect(revoked.state == .revoked)
        #expect(revoked.transaction.revocationType == .refundProrated)
        #expect(revoked.transaction.revocationPercentage == 80_000)
        #expect(revoked.grants == Grants(["gold": 60]), "the credit itself is unchanged")

        let restored = try await store.restore(transactionID: "t-pat", cause: "reversed", now: now + 4)
        #expect(restored == .applied(owner: "pat", grants: Grants(["gold": 48]), shortfall: .none, share: 0))
        #expect(try await store.restore(transactionID: "t-pat", cause: "reversed", now: now + 5) != restored)
        #expect(try await store.balances(of: "pat") == ["gold": 60])
        let after = try #require(try await store.transaction("t-pat"))
        #expect(after.state == .credited && after.transaction.revocationPercentage == nil)
        #expect(
            try await store.auditTrail(of: "t-pat").map(\.event) == ["credited", "revoked", "revoked", "restored"])

        let events = try await refundEvents(endpoint: "https://pat.example")
        #expect(events.map(\.grants) == [["gold": 60], ["gold": -30], ["gold": -18], ["gold": 48]])
        #expect(events.map(\.share) == [nil, 0.5, 0.3, nil])
        #expect(events.map(\.revocationPercentage) == [nil, 50_000, 80_000, nil])
        #expect(events.map(\.revocationType) == [nil, "REFUND_PRORATED", "REFUND_PRORATED", nil])
    }

    /// 33.333% twice of 60 gold is floor(19.9998) = 19, then floor(39.9996) − 19 = 20; the whole rest then 21: the
    /// revoked amounts add up to the grant, never more.
    public func roundsTheCumulativeShareDownNotEachRefund() async throws {
        try await creditedEvent("t-quinn", user: "quinn")
        #expect(
            try await store.revoke(prorated("t-quinn", 33_333), now: now + 1)
                == .applied(
                    owner: "quinn", grants: Grants(["gold": 19]), shortfall: .none, share: 33_333))
        #expect(
            try await store.revoke(prorated("t-quinn", 66_666), now: now + 2)
                == .applied(
                    owner: "quinn", grants: Grants(["gold": 20]), shortfall: .none, share: 66_666))
        let rest = Revocation(transactionID: "t-quinn", date: now, type: .refundFull, percentage: 40_000, cause: "x")
        #expect(
            try await store.revoke(rest, now: now + 3)
                == .applied(
                    owner: "quinn", grants: Grants(["gold": 21]), shortfall: .none, share: 100_000))
        #expect(try await store.balances(of: "quinn") == ["gold": 0])
        #expect(
            try await store.revoke(rest, now: now + 4)
                == .unchanged(
                    "100.000% already revoked; Apple's share is 100.000%"))
    }

    /// With `allowNegativeBalance` false a revoke takes a currency only down to zero: the rest is the shortfall, in
    /// the outcome, the audit record and the event; the reversal gives back only what was taken. With it true (the
    /// default) the balance goes below zero and the audit record says so.
    public func stopsARevokeAtZeroWithoutNegativeBalances() async throws {
        let debit = try #require(debit, "the backend's test passes `debit` to LedgerStoreConformance")
        try await drainUndispatched()
        try await creditedEvent("t-rory", user: "rory")
        try await debit("t-rory", "rory", "gold", 50)  // spent elsewhere: 10 left
        let stopped = try await store.revoke(prorated("t-rory", 50_000, allowNegativeBalance: false), now: now + 1)
        #expect(
            stopped
                == .applied(
                    owner: "rory", grants: Grants(["gold": 10]), shortfall: Grants(["gold": 20]),
                    share: 50_000))
        #expect(try await store.balances(of: "rory") == ["gold": 0])
        let detail = try #require(try await store.auditTrail(of: "t-rory").last?.detail)
        #expect(detail.contains("from rory gold-10 (REFUND_PRORATED: 0.000% → 50.000% of the purchase revoked)"))
        #expect(detail.contains("shortfall gold=20 not revoked: refunds.allowNegativeBalance is false"))
        #expect(
            try await store.restore(transactionID: "t-rory", cause: "reversed", now: now + 2)
                == .applied(
                    owner: "rory", grants: Grants(["gold": 10]), shortfall: .none, share: 0))
        #expect(try await store.balances(of: "rory") == ["gold": 10])
        let allowed = try await store.revoke(prorated("t-rory", 50_000), now: now + 3)
        #expect(allowed == .applied(owner: "rory", grants: Grants(["gold": 30]), shortfall: .none, share: 50_000))
        #expect(try await store.balances(of: "rory") == ["gold": -20])
        #expect(
            try await store.auditTrail(of: "t-rory").last?.detail.hasSuffix("balance now negative: gold=-20") == true)

        let events = try await refundEvents(endpoint: "https://rory.example")
        #expect(events.map(\.grants) == [["gold": 60], ["gold": -10], ["gold": 10], ["gold": -30]])
        #expect(events.map(\.shortfall) == [nil, ["gold": 20], nil, nil])
    }
}
