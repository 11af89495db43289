import Foundation
import Purser
import PurserCore
import Testing

/// An app's own code tested with a stand-in for the coordinator, as an app's test target would write it: only the
/// public API (`PurchaseCoordinating`, the public initializers of what it answers).
@Suite struct PurchaseCoordinatingTests {
    /// The stand-in: answers `buy` with what the test gave it, and tells its listeners.
    actor FakeCoordinator: PurchaseCoordinating {
        let answer: PurchaseEvent
        let broadcast: (AsyncStream<PurchaseEvent>, AsyncStream<PurchaseEvent>.Continuation)
        nonisolated var events: AsyncStream<PurchaseEvent> { broadcast.0 }

        init(answer: PurchaseEvent) {
            self.answer = answer
            broadcast = AsyncStream.makeStream(of: PurchaseEvent.self)
        }

        func start(session: PurserSession?) async {}
        func login(_ session: PurserSession) async {}
        func logout() async {}
        /// The quantities `buy` was asked for and the ids `spend` was given, in order.
        private(set) var quantities: [Int] = []
        private(set) var spendIDs: [String] = []

        func buy(_ productID: String, quantity: Int) async throws(PurchaseError) -> PurchaseEvent {
            quantities.append(quantity)
            broadcast.1.yield(answer)
            return answer
        }
        func preparePurchase(_ productID: String, quantity: Int) async throws(PurchaseError) -> PreparedPurchase {
            PreparedPurchase(orderID: OrderID(UUID()), productID: productID, quantity: quantity)
        }
        func products() async throws(ProductCatalogError) -> [PurchasableProduct] {
            [
                PurchasableProduct(
                    id: "gold60", kind: .consumable, grants: Grants(["gold": 60]), displayName: "60 Gold",
                    displayPrice: "$0.99")
            ]
        }
        func spend(_ amounts: [String: Int64], reason: String, id: String) async throws(SpendError) -> SpendResult {
            spendIDs.append(id)
            return SpendResult(id: id, spent: amounts.mapValues { -$0 }, balances: ["gold": 40])
        }
        func wallet() async throws(PurserAPIError) -> WalletResponse {
            WalletResponse(userId: "alice", balances: ["gold": 40])
        }
        func entitlements() async throws(StoreFailure) -> [StoreTransaction] { [] }
        func restore() async throws(RestoreError) -> [PurchaseEvent] { [] }
    }

    /// An app's shop model, written against the protocol.
    struct Shop {
        let purchases: any PurchaseCoordinating

        /// The line the shop shows after a tap on Buy.
        func tapBuy(_ product: PurchasableProduct) async -> String {
            do {
                switch try await purchases.buy(product.id, quantity: 1) {
                case .delivered(let delivery): return "Got \(delivery.grants?.amounts["gold"] ?? 0) gold"
                case .pending(let pending): return pending.reason.message(.english)
                default: return "?"
                }
            } catch {
                return error.message(.english)
            }
        }
    }

    @Test func anAppsShopIsTestedWithAStandIn() async throws {
        let delivered = PurchaseEvent.delivered(
            Delivery(transactionID: "1", productID: "gold60", grants: Grants(["gold": 60])))
        let shop = Shop(purchases: FakeCoordinator(answer: delivered))
        let product = try #require(try await shop.purchases.products().first)
        #expect(await shop.tapBuy(product) == "Got 60 gold")
        let waiting = Shop(
            purchases: FakeCoordinator(
                answer: .pending(PendingPurchase(productID: "gold60", reason: .askToBuy))))
        #expect(await waiting.tapBuy(product) == PendingPurchaseReason.askToBuy.message(.english))
        let failure = PurchaseFailure(productID: "gold60", reason: .cancelled)
        #expect(failure.reason == .cancelled && ProductCatalogError(code: "x", message: "y").description == "x: y")
    }

    @Test func aShopWrittenAgainstTheProtocolMakesEveryCallTheGuidesMake() async throws {
        let fake = FakeCoordinator(answer: .delivered(Delivery(transactionID: "1", productID: "gold60")))
        let purchases: any PurchaseCoordinating = fake
        _ = try await purchases.buy("gold60")
        _ = try await purchases.buy("gold60", quantity: 3)
        #expect(await fake.quantities == [1, 3])
        _ = try await purchases.spend(["gold": 5], reason: "sword")
        _ = try await purchases.spend(["gold": 5], reason: "sword")
        let ids = await fake.spendIDs
        #expect(ids.count == 2 && Set(ids).count == 2, "each spend gets an id of its own: \(ids)")
        #expect(ids.allSatisfy { UUID(uuidString: $0) != nil })
        let prepared = try await purchases.preparePurchase("gold60")
        #expect(prepared.quantity == 1 && prepared.productID == "gold60")
        // A stand-in's defaults: nothing to cancel, settle or recover; no resent spends or wallet updates.
        #expect(await purchases.cancelPreparedPurchase(prepared) == nil)
        #expect(await purchases.settleTransaction("1") == nil)
        await purchases.recover(.foreground)
        for await _ in purchases.spendOutcomes { Issue.record("a stand-in resent a spend") }
        for await _ in purchases.walletUpdates { Issue.record("a stand-in sent a wallet") }
        await purchases.shutdown()
    }

    /// The app's shop over the real coordinator: compiles only while `PurchaseCoordinator` is one.
    static func shop(over coordinator: PurchaseCoordinator) -> Shop { Shop(purchases: coordinator) }
}
