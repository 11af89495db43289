import AppStoreSimulator
import AppStoreVerification
import Foundation
import Purser
import PurserChaos
import PurserCore
import PurserStorage
import Testing

/// Restore Purchases, the user's entitlements and the wallet, through the public API on a simulated device against a
/// live server: a restored purchase goes through the same submit-then-finish path as a purchase, and the server's
/// answer to it is idempotent.
@Suite("Restore, entitlements and the wallet")
struct RestoreTests {
    @Test(
        "restore() re-sends an owned non-consumable after a relaunch; the server answers without a second credit",
        arguments: StoreKitGeneration.allCases)
    func restoreResends(_ generation: StoreKitGeneration) async throws {
        try await SimulatedApp.run(generation) { app, server in
            let first = try await app.launch(user: "alice")
            let bought = try await first.buy("noads")
            #expect(bought.isDelivered)
            let original = try #require(bought.transactionID)
            await app.expectFinishedOnce(original)
            await first.kill()
            #expect(try await server.balance("alice") == 1)

            let second = try await app.launch(user: "alice")
            let before = server.network.submissionCount
            let restored = try await second.run { try await second.coordinator.restore() }
            #expect(restored.count == 1)
            let event = try #require(restored.first)
            #expect(event.isRedelivered, "a restore is not news: \(event)")
            guard case .redelivered(let delivery) = event else { return }
            #expect(delivery.productID == "noads")
            #expect(server.network.submissionCount == before + 1, "the owned purchase was sent again")
            #expect(server.network.answers(to: "/v1/transactions").last == 200)
            let submitted = try #require(try server.network.submitted.last)
            switch generation {
            case .storeKit2:
                #expect(submitted.signedTransaction != nil)
                #expect(delivery.transactionID == original, "StoreKit 2 hands back the purchase itself")
                #expect(app.device.syncCount == 1, "AppStore.sync() ran first")
            case .storeKit1:
                #expect(submitted.transactionId == original, "submitted as the purchase it restores")
                #expect(delivery.transactionID != original)
                #expect(await eventually { app.device.restoredTransactionIDs.isEmpty }, "the restoration is finished")
                #expect(app.device.finishCount(of: delivery.transactionID) == 1)
            }
            #expect(await second.event { $0.isRedelivered } != nil, "also reported on events")
            #expect(try await server.balance("alice") == 1, "no second credit")
            #expect(try await server.store.transaction(original)?.ownerID == UserID("alice"))
            #expect(app.earlyFinishes.transactionIDs.isEmpty, "finished before a decision")

            // Again, in the same run: sent again, still one credit.
            let again = try await second.run { try await second.coordinator.restore() }
            #expect(again.count == 1 && again.allSatisfy(\.isRedelivered))
            #expect(server.network.submissionCount == before + 2)
            #expect(try await server.balance("alice") == 1)
        }
    }

    @Test(
        "restore() with nothing bought settles nothing; offline it throws the store's failure",
        arguments: StoreKitGeneration.allCases)
    func restoreNothingAndOffline(_ generation: StoreKitGeneration) async throws {
        try await SimulatedApp.run(generation) { app, server in
            let run = try await app.launch(user: "alice")
            #expect(try await run.run { try await run.coordinator.restore() }.isEmpty)
            #expect(server.network.submissionCount == 0)
            app.device.setOffline(true)
            let error = await #expect(throws: RestoreError.self) {
                try await run.run { try await run.coordinator.restore() }
            }
            #expect(error?.code == "store_unavailable")
            if case .store(let failure) = error { #expect(failure.reason == .network) }
        }
    }

    @Test("restore() needs a signed-in user")
    func restoreNeedsSignIn() async throws {
        try await SimulatedApp.run(.storeKit2) { app, _ in
            let run = try await app.launch(user: nil)
            await #expect(throws: RestoreError.notSignedIn) {
                try await run.run { try await run.coordinator.restore() }
            }
            #expect(app.device.syncCount == 0)
        }
    }

    @Test("entitlements() lists the owned non-consumable, not consumables; the wallet agrees")
    func entitlements() async throws {
        try await SimulatedApp.run(.storeKit2) { app, _ in
            let run = try await app.launch(user: "alice")
            #expect(try await run.run { try await run.coordinator.entitlements() }.isEmpty)
            #expect(try await run.buy("gold60").isDelivered)
            let noads = try await run.buy("noads")
            let owned = try await run.run { try await run.coordinator.entitlements() }
            #expect(owned.map(\.productID) == ["noads"])
            #expect(owned.first?.id == noads.transactionID)
            #expect(owned.first?.orderID == noads.orderID, "the order travelled as the account token")

            let wallet = try await run.run { try await run.coordinator.wallet() }
            #expect(wallet.entitlements == ["noads"])
            #expect(wallet.balances["gold"] == 60)
        }
    }

    @Test("StoreKit 1 lists no entitlements without a restore; the wallet needs a signed-in user")
    func storeKit1EntitlementsAndWalletSignIn() async throws {
        try await SimulatedApp.run(.storeKit1) { app, _ in
            let run = try await app.launch(user: nil)
            await #expect(throws: StoreFailure.self) { try await run.run { try await run.coordinator.entitlements() } }
            let error = await #expect(throws: PurserAPIError.self) {
                try await run.run { try await run.coordinator.wallet() }
            }
            #expect(error?.code == "not_signed_in")
        }
    }
}
