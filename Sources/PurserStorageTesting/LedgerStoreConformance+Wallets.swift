import Foundation
import PurserCore
import PurserStorage
import PurserWebhooks
import Testing

/// Spends and deposits: applied once by their id, all currencies or none, never below the floor, each with its
/// `wallet.changed` event and audit record.
extension LedgerStoreConformance {
    func walletRequest(_ id: String, _ user: UserID, _ amounts: [String: Int64], reason: String = "quest reward")
        -> WalletTransaction.Request
    {
        WalletTransaction.Request(id: id, userID: user, amounts: amounts, reason: reason, cause: "admin")
    }

    public func appliesSpendsAndDepositsOnceWithinTheBalance() async throws {
        try await drainUndispatched()
        let deposit = walletRequest("w-xena-1", "xena", ["gold": 100])
        guard case .applied(let first) = try await store.applyWalletTransaction(deposit, now: now) else {
            Issue.record("a deposit was not applied")
            return
        }
        #expect(first.balances == ["gold": 100])
        #expect(try await store.applyWalletTransaction(deposit, now: now + 1) == .replayed(first))
        var other = deposit
        other.amounts = ["gold": 101]
        other.reason = "another"
        #expect(try await store.applyWalletTransaction(other, now: now + 1) == .conflict(["amounts", "reason"]))

        let spend = walletRequest("w-xena-2", "xena", ["gold": -30])
        guard case .applied(let spent) = try await store.applyWalletTransaction(spend, now: now + 2) else {
            Issue.record("a covered spend was refused")
            return
        }
        #expect(spent.balances == ["gold": 70])
        let tooMuch = walletRequest("w-xena-3", "xena", ["gold": -71])
        #expect(
            try await store.applyWalletTransaction(tooMuch, now: now + 3)
                == .insufficient(currency: "gold", balance: 70, requested: 71))
        let partly = walletRequest("w-xena-4", "xena", ["gold": -10, "gems": -1])
        #expect(
            try await store.applyWalletTransaction(partly, now: now + 3)
                == .insufficient(currency: "gems", balance: 0, requested: 1))
        #expect(try await store.balances(of: "xena") == ["gold": 70], "a refused spend takes nothing, in no currency")

        // 50 spends of 10 at once from 70: exactly seven fit.
        let outcomes = try await withThrowingTaskGroup(of: WalletTransaction.Outcome.self) { group in
            for index in 0..<50 {
                group.addTask {
                    try await store.applyWalletTransaction(
                        walletRequest("w-xena-race-\(index)", "xena", ["gold": -10]), now: now + 4)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { if case .applied = $0 { true } else { false } }.count == 7)
        #expect(try await store.balances(of: "xena") == ["gold": 0])

        // One id sent 20 times at once applies once.
        let same = walletRequest("w-yuri-1", "yuri", ["gems": 5])
        let repeats = try await withThrowingTaskGroup(of: WalletTransaction.Outcome.self) { group in
            for _ in 0..<20 { group.addTask { try await store.applyWalletTransaction(same, now: now + 5) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(repeats.filter { if case .applied = $0 { true } else { false } }.count == 1)
        #expect(repeats.filter { if case .replayed = $0 { true } else { false } }.count == 19)
        #expect(try await store.balances(of: "yuri") == ["gems": 5])
        #expect(try await store.auditTrail(of: "w-xena-2").map(\.event) == ["spent"])

        let route = WebhookRoute(endpoint: "https://xena.example/hooks")
        #expect(try await store.dispatchWebhookEvents(to: [route], limit: 100, now: now + 6) == 10)
        let claims = try await store.claimWebhookDeliveries(
            endpoint: route.endpoint, holder: "x", until: now + 60, limit: 20, now: now + 6)
        let events = try claims.map { try WebhookEvent.decoder.decode(WebhookEvent.self, from: Data($0.body.utf8)) }
        #expect(events.allSatisfy { $0.type == .walletChanged })
        let xena = events.compactMap(\.walletChange).filter { $0.userId == "xena" }
        #expect(xena.map(\.sequence) == Array(1...9), "one event per applied change, numbered per user")
        #expect(xena.first?.amounts == ["gold": 100] && xena.first?.balances == ["gold": 100])
        #expect(xena.first?.id == "w-xena-1" && xena.first?.cause == "admin")
    }
}
