import Purser
import PurserChaos
import PurserCore

/// StoreKit 2's `Product.purchase` can throw `StoreKitError.userCancelled` instead of answering `.userCancelled`;
/// the adapter then reports a failure whose reason is `cancelled`. The simulator never throws, so this stands in.
struct ThrowingCancelAdapter: ForwardingStoreAdapter {
    let inner: any StoreAdapter

    func purchase(productID: String, quantity: Int, orderID: OrderID) async -> StorePurchaseResult {
        .failed(StoreFailure(.cancelled, detail: "StoreKitError.userCancelled"))
    }
}
