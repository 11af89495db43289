import AppStoreVerification
import Foundation
import PurserCore
import Synchronization

// Restoring purchases (StoreKit 1's `restoreCompletedTransactions()`): every non-consumable the device bought comes
// back as a new `restored` transaction that points to the original and stays in the queue until finished.
extension SimulatedDevice {
    /// Delivers a `restored` transaction for every non-consumable this device bought that Apple has not refunded.
    /// Returns why it failed, if it did (the app is not running, the device is offline).
    public func restoreCompletedTransactions(_ process: SimulatedProcess) async -> DeviceFailure? {
        guard isRunning(process) else { return .unknown }
        guard !isOffline else { return .network }
        let originals = await store.purchases(deviceId: id).map(\.purchase.transaction).filter {
            $0.type == ProductDefinition.Kind.nonConsumable.appleType && $0.revocationDate == nil
        }
        let restored = originals.map { original in
            let queueID = nextLocalID()
            return DeviceTransaction(
                queueID: queueID, state: .restored, productID: original.productId, quantity: original.quantity ?? 1,
                transactionID: queueID, purchaseDate: original.purchaseDate.map(Date.init(appStoreMilliseconds:)),
                originalTransactionID: original.transactionId)
        }
        state.withLock { $0.restored.append(contentsOf: restored) }
        if !restored.isEmpty { deliverToObservers(restored) }
        return nil
    }

    /// Restored transactions StoreKit still holds for the app, oldest first.
    public var restoredTransactionIDs: [String] {
        state.withLock { $0.restored.map(\.queueID) }
    }
}
