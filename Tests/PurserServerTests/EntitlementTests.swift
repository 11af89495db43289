import AppStoreSimulator
import AppStoreVerification
import Foundation
import HTTPTypes
import HummingbirdTesting
import PurserCore
import PurserServer
import PurserStorage
import Testing

/// Non-consumables have their own place in the wallet: owned once, never ordered twice, restored idempotently.
@Suite struct EntitlementTests {
    @Test func anOwnedNonConsumableIsAnEntitlementNotABalanceAndCannotBeOrderedAgain() async throws {
        try await TestServer.run { server, client in
            let gold = try await server.order("gold60", for: "alice", client: client)
            let goldPaid = try await server.pay("gold60", token: gold.orderId.description)
            #expect(
                try await client.submit(goldPaid.jws, user: "alice").decode(DecisionResponse.self).decision
                    == "delivered")

            let order = try await server.order("noads", for: "alice", client: client)
            let (transaction, jws) = try await server.appStore.purchase(
                .init(productId: "noads", appAccountToken: order.orderId.description, type: "Non-Consumable"))
            #expect(try await client.submit(jws, user: "alice").decode(DecisionResponse.self).decision == "delivered")

            let wallet = try await client.get("/v1/wallet", user: "alice").decode(WalletResponse.self)
            #expect(wallet.entitlements == ["noads"])
            #expect(wallet.balances == ["gold": 60], "noads is owned, not counted")
            #expect(try await client.get("/v1/wallet", user: "bob").decode(WalletResponse.self).entitlements == [])

            let again = try await client.post("/v1/orders", user: "alice", json: CreateOrderRequest(productId: "noads"))
            #expect(again.status == .conflict)
            #expect(again.errorCode == "already_owned")
            let byBob = try await client.post("/v1/orders", user: "bob", json: CreateOrderRequest(productId: "noads"))
            #expect(byBob.status == .created, "another account does not own it")
            let moreGold = try await client.post(
                "/v1/orders", user: "alice", json: CreateOrderRequest(productId: "gold60"))
            #expect(moreGold.status == .created, "consumables are bought again and again")

            // A restore sends the same signed purchase again: answered as before, nothing added.
            let restored = try await client.submit(jws, user: "alice").decode(DecisionResponse.self)
            #expect(restored.decision == "alreadyDelivered")
            #expect(restored.transactionId == transaction.transactionId)
            #expect(try await client.get("/v1/wallet", user: "alice").decode(WalletResponse.self) == wallet)
            #expect(try await server.store.balances(of: "alice")["noads"] == 1, "the ledger credited it once")
        }
    }
}
