import Foundation
import PurserCore
import PurserStorage
import PurserWebhooks
import Testing

/// Erasure: a user's id becomes a pseudonym wherever it is stored as itself, the money stays, and nothing else moves.
extension LedgerStoreConformance {
    /// The id leaves every row that held it (a caller's idempotency id that embeds it is kept and reported), a user
    /// whose id merely starts with it is untouched, balances and the ledger check are unchanged, the wallet's
    /// metadata is dropped, and a `user.erased` event follows the user's events. A second erasure finds nothing.
    public func erasesAUserEverywhereAndKeepsTheMoney() async throws {
        try await drainUndispatched()
        let (user, neighbour, pseudonym): (UserID, UserID, UserID) = ("erase-me-41", "erase-me-410", "erased-4f1c")
        try await creditedEvent("t-erase-1", user: user)
        try await creditedEvent("t-erase-2", user: neighbour)
        let token = OrderID.accountToken(for: user).description
        let tokenBound = Submission(
            transaction: transaction("t-erase-3", token: OrderID.accountToken(for: user)),
            assessment: .creditable(gold),
            source: .client(user))
        _ = try await store.settle(tokenBound, now: now)
        #expect(try await store.rowsMentioning(token).isEmpty == false, "the account token derived from the id")
        let deposit = WalletTransaction.Request(
            id: "w-erase-1", userID: user, amounts: ["gold": 15], reason: "for erase-me-41",
            metadata: #"{"email":"someone@example.com"}"#, cause: "admin")
        _ = try await store.applyWalletTransaction(deposit, now: now)
        _ = try await store.applyWalletTransaction(walletRequest("gift:erase-me-41", user, ["gold": 5]), now: now)
        _ = try await store.placeHold(holdRequest("h-erase-1", user, ["gold": 20]), now: now)
        let before = try await store.integrity()
        let balance = try await store.balances(of: user)
        let neighbours = try await store.rowsMentioning(neighbour.rawValue)
        let mentions = Set(try await store.rowsMentioning(user.rawValue).map(\.table))
        #expect(
            mentions.isSuperset(of: [
                "orders", "apple_transactions", "grants", "audit_log", "outbox", "wallet_transactions",
                "wallet_entries", "wallet_holds",
            ]), "the search finds the user's rows: \(mentions.sorted())")
        #expect(!neighbours.isEmpty)

        let erased = try #require(try await store.eraseUser(user, pseudonym: pseudonym, cause: "ops", now: now + 5))
        #expect(erased.pseudonym == pseudonym.rawValue)
        #expect(erased.kept == ["wallet_transactions": 1], "a caller's id that embeds the user's is kept")
        #expect((erased.rows["orders"] ?? 0) >= 1 && (erased.rows["grants"] ?? 0) >= 1)
        let left = try await store.rowsMentioning(user.rawValue)
        #expect(left.map(\.table) == ["wallet_transactions"], "only the kept caller id: \(left)")
        #expect(left.first?.values["idempotency_id"] == .text("gift:erase-me-41"))
        #expect(try await store.rowsMentioning(neighbour.rawValue) == neighbours, "a longer id is not touched")
        #expect(try await store.rowsMentioning(token).isEmpty, "nor the token anyone could derive from the id")

        let after = try await store.integrity()
        #expect(after.findings.isEmpty, "\(after.findings)")
        #expect(after.balancesChecksum == before.balancesChecksum && after.totals == before.totals)
        #expect(try await store.balances(of: pseudonym) == balance && balance["gold"] == 80)
        #expect(try await store.balances(of: user).isEmpty)
        let wallet = try await store.rowsMentioning(pseudonym.rawValue).filter { $0.table == "wallet_transactions" }
        #expect(wallet.count == 2 && wallet.allSatisfy { $0.values["metadata"] == .null }, "metadata dropped")
        #expect(wallet.contains { $0.values["reason"] == .text("for erased-4f1c") }, "an id inside text too")
        #expect(try await store.auditTrail(of: pseudonym.rawValue).map(\.event).contains("erased"))

        let route = WebhookRoute(endpoint: "https://erasure.example/hooks")
        _ = try await store.dispatchWebhookEvents(to: [route], limit: 100, now: now + 6)
        let claims = try await store.claimWebhookDeliveries(
            endpoint: route.endpoint, holder: "e", until: now + 60, limit: 100, now: now + 6)
        let events = try claims.map { try WebhookEvent.decoder.decode(WebhookEvent.self, from: Data($0.body.utf8)) }
        let event = try #require(events.first { $0.type == .userErased })
        #expect(event.erasure?.userId == pseudonym.rawValue && events.filter { $0.type == .userErased }.count == 1)
        #expect(event.erasure?.sequence == 4, "after the user's credit and two deposits: \(String(describing: event))")
        #expect(
            try await store.eraseUser(user, pseudonym: pseudonym, cause: "ops", now: now + 7) == nil,
            "erased before: only the kept caller ids hold it, and no second user.erased event is written")
        try await drainUndispatched()
    }
}
