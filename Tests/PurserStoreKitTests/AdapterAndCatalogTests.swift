import AppStoreSimulator
import Foundation
import Purser
import PurserChaos
import PurserCore
import PurserStoreKitSimulated
import Testing

@Suite("Adapters and catalog")
struct AdapterAndCatalogTests {
    @Test("StoreKit 1: a payment that stays `purchasing` ends as `stalled`, never a hang")
    func stalled() async throws {
        try await SimulatedApp.run(.storeKit1) { app, server in
            let first = try await app.launch(user: "alice", crashAt: .paid)
            await #expect(throws: PurchaseError.terminated) { try await first.buy("gold60") }
            // Bypass the coordinator (which settles the old purchase first) to see what StoreKit alone does.
            let process = app.device.launch()
            let device = app.device
            let adapter = SimulatedProcess.$current.withValue(process) {
                StoreKit1Adapter(receiptURL: { device.receiptURL }, purchasingTimeout: .milliseconds(300))
            }
            await SimulatedProcess.$current.withValue(process) {
                await adapter.start { _ in }
                let result = await adapter.purchase(productID: "gold60", quantity: 1, orderID: .random())
                #expect(result == .stalled)
            }
            #expect(await server.appStore.purchases().count == 1)
        }
    }

    @Test("StoreKit 1: a product request that fails throws, so no empty list is taken for the store's answer")
    func failedProductRequest() async throws {
        try await LiveServer.run { server in
            let process = SimulatedApp(server: server, generation: .storeKit1).device.launch()
            let adapter = StoreKitGeneration.storeKit1.makeAdapter(in: process)
            // Outside the app's process StoreKit cannot answer: the request fails.
            await #expect(throws: StoreFailure.self) { try await adapter.products(["gold60"]) }
            let found = try await SimulatedProcess.$current.withValue(process) {
                try await adapter.products(["gold60"])
            }
            #expect(found.map(\.id) == ["gold60"])
        }
    }

    @Test(
        "products: the server's list joined with the store's, refreshed only when the server's list changes",
        arguments: StoreKitGeneration.allCases)
    func catalog(_ generation: StoreKitGeneration) async throws {
        try await SimulatedApp.run(generation) { app, server in
            let run = try await app.launch(user: "alice")
            let products = try await run.run { try await run.coordinator.products() }
            #expect(products.map(\.id) == ["gold120", "gold60", "noads"])
            let gold60 = try #require(products.first { $0.id == "gold60" })
            #expect(gold60.displayName == "60 Gold")
            #expect(gold60.grants == Grants(["gold": 60]))
            #expect(gold60.displayPrice.contains("0.99"))
            // StoreKit 2's `price` and `priceFormatStyle.currencyCode`, StoreKit 1's `price` and `priceLocale`.
            #expect(gold60.price == Decimal(string: "0.99") && gold60.currencyCode == "USD", "\(gold60)")
            let again = try await run.run { try await run.coordinator.products() }
            #expect(again == products)
            #expect(server.network.answers(to: "/v1/products") == [200, 304])
        }
    }
}
