import AppStoreVerification
import Synchronization

// Ask to Buy: a payment waits for a parent; when approved, Apple charges and the running app hears about it.
extension SimulatedDevice {
    /// A payment waiting for a parent's approval.
    struct Deferred {
        var entry: DeviceTransaction
        var tokenForApple: String?
        var label: String?
    }

    /// A parent approves every deferred payment: Apple charges now and the running app hears about it.
    @discardableResult
    public func approveAskToBuy() async throws(SimulatorError) -> [String] {
        let waiting = state.withLock { state in
            defer { state.deferred = [] }
            return state.deferred
        }
        var charged: [String] = []
        for item in waiting {
            let entry = try await charge(
                item.entry.productID, quantity: item.entry.quantity,
                username: item.entry.applicationUsername, tokenForApple: item.tokenForApple,
                label: item.label)
            charged.append(entry.transactionID ?? "")
            deliverPurchased(entry)
            yieldToListeners(entry)
        }
        return charged
    }
}
