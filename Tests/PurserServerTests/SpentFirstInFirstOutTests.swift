import AppStoreSimulator
import AppStoreVerification
import Foundation
import HTTPTypes
import HummingbirdTesting
import PurserCore
import PurserStorage
import Testing

@testable import PurserServer

/// CONSUMPTION_REQUEST's consumed share from what was really spent, first in, first out: the spends after a purchase
/// take what the wallet held before it first.
@Suite struct SpentFirstInFirstOutTests {
    static func entry(_ kind: String, _ reference: String, _ gold: Int64, at second: Double) -> WalletHistoryEntry {
        WalletHistoryEntry(
            kind: kind, at: Date(timeIntervalSince1970: second), amounts: ["gold": gold], reference: reference)
    }

    static func consented(_ configuration: inout ServerConfiguration) {
        configuration.consumption.customerConsented = true
    }

    @Test func spendsTakeTheOldestGoldFirst() {
        let bought = [Self.entry("credit", "t1", 100, at: 1), Self.entry("credit", "t2", 100, at: 2)]
        let grant = Grants(["gold": 100])
        func share(_ id: String, after rest: [WalletHistoryEntry]) -> Int? {
            SpentFirstInFirstOut.consumedShare(of: id, grants: grant, history: bought + rest)
        }
        let spent100 = [Self.entry("spend", "s1", -100, at: 3)]
        #expect(share("t1", after: spent100) == 100_000, "the first purchase's gold went first")
        #expect(share("t2", after: spent100) == 0)
        let spent150 = [Self.entry("spend", "s1", -100, at: 3), Self.entry("adjust", "s2", -50, at: 4)]
        #expect(share("t1", after: spent150) == 100_000)
        #expect(share("t2", after: spent150) == 50_000)
        #expect(share("t2", after: []) == 0, "nothing spent")
        // A deposit after a purchase does not shield it: it is newer.
        #expect(
            share("t2", after: [Self.entry("deposit", "d", 500, at: 3), Self.entry("spend", "s", -130, at: 4)])
                == 30_000)
        // The first purchase refunded takes its own gold back: what t2 finds before it is 0.
        #expect(
            share("t2", after: [Self.entry("revoke", "t1", -100, at: 3), Self.entry("spend", "s", -40, at: 4)])
                == 40_000)
        #expect(share("t3", after: spent100) == nil, "no credit of it: the caller falls back")
    }

    /// Two purchases, then the game spends 60 through the admin API: Apple asking about the first hears it is spent
    /// (DECLINE), about the second that it is not, though the balance (60) covers either.
    @Test func theConsumptionAnswerCountsRealSpends() async throws {
        try await TestServer.run(configure: Self.consented) { server, client in
            var ids: [String] = []
            for _ in 0..<2 {
                let order = try await server.order("gold60", for: "alice", client: client)
                let (id, _) = try await server.pay("gold60", token: order.appAccountToken)
                await server.appStore.deliverDueNotifications(force: true)
                #expect(try await server.store.transaction(id)?.state == .credited)
                ids.append(id)
            }
            let spend = try await client.admin(
                .post, "/admin/v1/wallets/alice/transactions",
                body: #"{"id": "shop-1", "amounts": {"gold": -60}, "reason": "sword"}"#)
            #expect(spend.status == .ok)
            for id in ids {
                try await server.appStore.notify("CONSUMPTION_REQUEST", transactionID: id)
                await server.appStore.deliverDueNotifications(force: true)
            }
            let first = try #require(await server.serverAPI.consumptionInformationV2(transactionID: ids[0]))
            #expect(first.consumptionPercentage == 100_000 && first.refundPreference == .decline)
            let second = try #require(await server.serverAPI.consumptionInformationV2(transactionID: ids[1]))
            #expect(second.consumptionPercentage == 0 && second.refundPreference == nil)
        }
    }
}
