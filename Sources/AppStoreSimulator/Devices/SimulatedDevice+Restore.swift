import AppStoreVerification
import Foundation
import PurserCore
import Synchronization

// Restoring purchases. StoreKit 1's `restoreCompletedTransactions()`: every non-consumable the device bought comes
// back as a new `restored` transaction that points to the original and stays in the queue until finished. StoreKit
// 2's `AppStore.sync()` and `Transaction.currentEntitlements`: the original transactions themselves, signed anew.
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

    /// `AppStore.sync()`: fails as a real device does when the app is not running or the device is offline.
    public func syncWithAppStore(_ process: SimulatedProcess) async -> DeviceFailure? {
        guard isRunning(process) else { return .unknown }
        guard !isOffline else { return .network }
        state.withLock { $0.syncs += 1 }
        return nil
    }

    /// How often the app called `AppStore.sync()`.
    public var syncCount: Int { state.withLock { $0.syncs } }

    /// `Transaction.currentEntitlements`: the non-consumables this device bought that Apple has not refunded, oldest
    /// first, each as its original purchase (the same transaction id), finished or not.
    public func currentEntitlements(_ process: SimulatedProcess) async -> [DeviceTransaction] {
        guard isRunning(process) else { return [] }
        var owned: [DeviceTransaction] = []
        for (_, purchase) in await store.purchases(deviceId: id) {
            let original = purchase.transaction
            guard original.type == ProductDefinition.Kind.nonConsumable.appleType, original.revocationDate == nil,
                let signed = try? await store.transaction(original.transactionId).signed
            else { continue }
            owned.append(
                DeviceTransaction(
                    queueID: original.transactionId, state: .purchased, productID: original.productId,
                    quantity: original.quantity ?? 1, transactionID: original.transactionId,
                    purchaseDate: original.purchaseDate.map(Date.init(appStoreMilliseconds:)),
                    signedTransaction: signed,
                    appAccountToken: original.appAccountToken.flatMap(UUID.init(uuidString:))))
        }
        return owned
    }

    /// Restored transactions StoreKit still holds for the app, oldest first.
    public var restoredTransactionIDs: [String] {
        state.withLock { $0.restored.map(\.queueID) }
    }
}
