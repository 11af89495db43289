import Foundation
import Purser
import PurserCore
import Testing

/// `PurserStore` over a stand-in coordinator, as an app's preview or test would drive it: only the public API.
@Suite struct PurserStoreTests {
    typealias Fake = PurchaseCoordinatingTests.FakeCoordinator

    static let product = PurchasableProduct(
        id: "gold60", kind: .consumable, grants: Grants(["gold": 60]), displayName: "60 Gold", displayPrice: "$0.99")

    @Test func aDeliveryIsShownAndTheBalancesFollow() async throws {
        let delivered = PurchaseEvent.delivered(Delivery(transactionID: "1", productID: "gold60"))
        let store = await PurserStore(coordinator: Fake(answer: delivered), language: .english)
        let listener = Task { await store.listen() }
        defer { listener.cancel() }
        await store.load()
        #expect(await store.products == [Self.product])
        #expect(await store.balances == ["gold": 40])
        await store.buy(Self.product)
        #expect(await store.buying == nil)
        let deadline = Date().addingTimeInterval(5)
        while await store.lastEvent == nil, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(await store.lastEvent == delivered)
        #expect(await store.lastEvent?.message(.english) == "Purchase complete. Your items have arrived.")
        await store.dismiss()
        #expect(await store.lastEvent == nil)
    }

    @Test func onlyWhatTheUserShouldSeeIsWorthShowing() {
        let delivery = Delivery(transactionID: "1", productID: "gold60")
        #expect(PurchaseEvent.delivered(delivery).isWorthShowing)
        #expect(PurchaseEvent.redelivered(delivery).isWorthShowing)
        #expect(PurchaseEvent.deliveredToOtherAccount(delivery).isWorthShowing)
        #expect(PurchaseEvent.pending(PendingPurchase(productID: "gold60", reason: .askToBuy)).isWorthShowing)
        #expect(!PurchaseEvent.pending(PendingPurchase(productID: "gold60", reason: .notSignedIn)).isWorthShowing)
        #expect(!PurchaseEvent.failed(PurchaseFailure(productID: "gold60", reason: .cancelled)).isWorthShowing)
        #expect(PurchaseEvent.failed(PurchaseFailure(productID: "gold60", reason: .network)).isWorthShowing)
    }

    @Test func aCancelledPurchaseIsNotShown() async throws {
        let cancelled = PurchaseEvent.failed(PurchaseFailure(productID: "gold60", reason: .cancelled))
        let fake = Fake(answer: cancelled)
        let store = await PurserStore(coordinator: fake, language: .english)
        let listener = Task { await store.listen() }
        defer { listener.cancel() }
        await store.buy(Self.product)
        try await Task.sleep(for: .milliseconds(100))
        #expect(await store.lastEvent == nil)
    }
}
