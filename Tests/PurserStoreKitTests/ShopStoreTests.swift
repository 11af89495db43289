import AppStoreSimulator
import Foundation
import Observation
import Purser
import PurserChaos
import PurserCore
import PurserStorage
import PurserStoreKitSimulated
import StoreKitShim
import Synchronization
import Testing

/// The SwiftUI and StoreKit idioms, through the public API on a simulated device against a live server:
/// `buy(product)`, the observable `PurserStore`, and selling through StoreKit's own views and `PurchaseAction`
/// with the order as the purchase's `appAccountToken`.
@Suite("SwiftUI store, buy(product) and StoreKit's views")
struct ShopStoreTests {
    @Test("buy(product) buys what products() listed", arguments: StoreKitGeneration.allCases)
    func buyProduct(_ generation: StoreKitGeneration) async throws {
        try await SimulatedApp.run(generation) { app, server in
            let run = try await app.launch(user: "alice")
            let products = try await run.run { try await run.coordinator.products() }
            let product = try #require(products.first { $0.id == "gold120" })
            let event = try await run.run { try await run.coordinator.buy(product) }
            #expect(event.isDelivered)
            guard case .delivered(let delivery) = event else { return }
            #expect(delivery.productID == "gold120")
            #expect(try await server.balance("alice") == 120)
            await app.expectFinishedOnce(delivery.transactionID)
        }
    }

    @Test(
        "the observable store shows which product is being bought, then the delivery and the new balances",
        arguments: StoreKitGeneration.allCases)
    func storeReflectsPurchase(_ generation: StoreKitGeneration) async throws {
        try await SimulatedApp.run(generation) { app, _ in
            let run = try await app.launch(user: "alice")
            let store = await PurserStore(coordinator: run.coordinator, language: .english)
            let listener = Task { await store.listen() }
            defer { listener.cancel() }
            await run.run { await store.load() }
            #expect(await store.products.map(\.id) == ["gold120", "gold60", "noads"])
            #expect(await store.balances.isEmpty)
            let product = try #require(await store.products.first { $0.id == "gold60" })

            let changes = Mutex(0)
            await MainActor.run {
                withObservationTracking {
                    _ = store.buying
                    _ = store.lastEvent
                    _ = store.balances
                } onChange: {
                    changes.withLock { $0 += 1 }
                }
            }
            app.device.queueOutcomes([.payWhenReleased])
            let buying = Task { await run.run { await store.buy(product) } }
            #expect(await eventually { await store.buying == "gold60" }, "the buying state shows the product")
            #expect(changes.withLock { $0 } >= 1, "SwiftUI hears of the change")
            app.device.releaseHeldSheet()
            await buying.value
            #expect(await store.buying == nil)
            #expect(await eventually { await store.lastEvent?.isDelivered == true })
            #expect(await eventually { await store.balances["gold"] == 60 }, "the balances follow the credit")
            #expect(await store.lastEvent?.message(.english) == "Purchase complete. Your items have arrived.")
            #expect(await store.errorMessage == nil)

            // A purchase the user cancelled is not news to them.
            await store.dismiss()
            app.device.queueOutcomes([.cancel])
            await run.run { await store.buy(product) }
            #expect(await run.event { $0.failureReason == .cancelled } != nil)
            try await Task.sleep(for: .milliseconds(200))
            #expect(await store.lastEvent == nil)

            // Restore: the owned non-consumable comes back, and the entitlements follow.
            _ = try await run.buy("noads")
            await run.run { await store.restore() }
            let restored = await store.lastEvent
            #expect(restored?.isRedelivered == true, "the restored purchase is shown: \(String(describing: restored))")
            #expect(await eventually { await store.entitlements == ["noads"] })
        }
    }

    @Test("a StoreKit view's purchase carrying the order's token is settled from Transaction.updates, once")
    func storeViewPurchase() async throws {
        try await SimulatedApp.run(.storeKit2) { app, server in
            let run = try await app.launch(user: "alice")
            let prepared = try await run.run { try await run.coordinator.preparePurchase("gold60") }
            #expect(
                prepared.options
                    == [StoreKitShim.Product.PurchaseOption.appAccountToken(prepared.orderID.uuid), .quantity(1)])
            #expect(await run.journal.entry(prepared.orderID)?.state == .paying)
            #expect(try await server.store.order(prepared.orderID) != nil, "the server made the order")

            let charged = await app.device.purchaseInStoreView(
                run.app.process, productID: "gold60", appAccountToken: prepared.appAccountToken)
            let id = try #require(charged?.transactionID)
            let event = try #require(await run.event(for: id))
            #expect(event.isDelivered, "a payment of this run is news: \(event)")
            #expect(event.orderID == prepared.orderID)
            await app.expectFinishedOnce(id)
            #expect(try await server.balance("alice") == 60)
            #expect(try await server.store.order(prepared.orderID)?.state == .delivered)
            #expect(await eventually { await run.journal.entry(prepared.orderID)?.state == .finished })
        }
    }

    @Test("PurchaseAction: the app's own purchase with the order's options is settled by complete(_:with:)")
    func purchaseAction() async throws {
        try await SimulatedApp.run(.storeKit2) { app, server in
            let run = try await app.launch(user: "alice")
            let product = try await run.run {
                try #require(try await StoreKitShim.Product.products(for: ["gold60"]).first)
            }

            let options = try await run.run { try await run.coordinator.purchaseOptions(for: product) }
            #expect(options.count == 2)
            let opened = try #require(await run.journal.open.first { $0.productID == "gold60" })
            #expect(options.contains(.appAccountToken(opened.id.uuid)), "the options carry a journaled order")

            let prepared = try await run.run { try await run.coordinator.preparePurchase("gold60") }
            let result = try await run.run { try await product.purchase(options: prepared.options) }
            let event = try #require(await run.run { await run.coordinator.complete(prepared, with: result) })
            #expect(event.isDelivered)
            #expect(event.orderID == prepared.orderID)
            await app.expectFinishedOnce(try #require(event.transactionID))
            #expect(try await server.balance("alice") == 60)

            app.device.queueOutcomes([.cancel])
            let cancelled = try await run.run { try await run.coordinator.preparePurchase("gold60") }
            let answer = try await run.run { try await product.purchase(options: cancelled.options) }
            let closed = await run.run { await run.coordinator.complete(cancelled, with: answer) }
            #expect(closed?.failureReason == .cancelled)
            #expect(await run.journal.entry(cancelled.orderID)?.state == .cancelled)
            #expect(try await server.store.order(cancelled.orderID)?.state == .cancelled)
            #expect(try await server.balance("alice") == 60)
        }
    }
}
