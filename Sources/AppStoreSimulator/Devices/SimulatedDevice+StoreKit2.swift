import AppStoreVerification
import Foundation
import Synchronization

// StoreKit 2: `Product.purchase`, `Transaction.updates` and `Transaction.unfinished`.
extension SimulatedDevice {
    /// What StoreKit 2's `Product.purchase` answers.
    public enum PurchaseResult: Sendable, Hashable {
        case purchased(DeviceTransaction)
        case pending
        case userCancelled
        case failed(DeviceFailure)
    }

    /// `Product.purchase(options:)`. `label` names the payment in `charges`.
    public func purchase(
        _ process: SimulatedProcess, productID: String, quantity: Int, appAccountToken: UUID?,
        label: String? = SimulatedDevice.paymentLabel
    ) async -> PurchaseResult {
        guard isRunning(process) else { return .failed(.unknown) }
        guard !isOffline else { return .failed(.network) }
        guard catalog[productID] != nil else { return .failed(.productUnavailable) }
        let outcome = await paymentSheet()
        switch outcome {
        case .pay, .payAfter, .payWhenReleased:
            defer { chargeLanded(after: outcome) }
            guard
                let entry = try? await charge(
                    productID, quantity: quantity, username: nil,
                    tokenForApple: appAccountToken?.uuidString, label: label, updatesReceipt: false)
            else { return .failed(.unknown) }
            if configuration.duplicateCallbacks { yieldToListeners(entry) }
            return .purchased(entry)
        case .cancel:
            return .userCancelled
        case .fail(let failure):
            return .failed(failure)
        case .askToBuy:
            let entry = DeviceTransaction(
                queueID: nextLocalID(), state: .deferred, productID: productID,
                quantity: quantity)
            state.withLock {
                $0.deferred.append(Deferred(entry: entry, tokenForApple: appAccountToken?.uuidString, label: label))
            }
            return .pending
        }
    }

    /// A purchase made in one of StoreKit's own views (`ProductView`, `StoreView`) with no completion action of the
    /// app's: the user pays, and StoreKit reports the transaction on `Transaction.updates` only. `appAccountToken` is
    /// the purchase option the app's `.inAppPurchaseOptions` gave. Returns the transaction, nil when nothing was
    /// charged.
    @discardableResult
    public func purchaseInStoreView(
        _ process: SimulatedProcess, productID: String, quantity: Int = 1, appAccountToken: UUID?,
        label: String? = SimulatedDevice.paymentLabel
    ) async -> DeviceTransaction? {
        guard isRunning(process), !isOffline, catalog[productID] != nil else { return nil }
        guard
            let entry = try? await charge(
                productID, quantity: quantity, username: nil, tokenForApple: appAccountToken?.uuidString,
                label: label, updatesReceipt: false)
        else { return nil }
        yieldToListeners(entry)
        return entry
    }

    /// `Transaction.updates`: unfinished transactions first, then purchases made outside the app (Ask to Buy
    /// approvals). Ends when the process is killed.
    public func transactionUpdates(_ process: SimulatedProcess) -> AsyncStream<DeviceTransaction> {
        let (stream, continuation) = AsyncStream.makeStream(of: DeviceTransaction.self)
        let backlog: [DeviceTransaction]? = withQueue { state in
            guard state.running, state.generation == process.generation else { return nil }
            state.nextID += 1
            state.listeners[state.nextID] = continuation
            return state.unfinished
        }
        guard let backlog else {
            continuation.finish()
            return stream
        }
        for entry in backlog {
            continuation.yield(entry)
            if configuration.duplicateCallbacks { continuation.yield(entry) }
        }
        return stream
    }

    /// `Transaction.unfinished`.
    public func unfinishedTransactions(_ process: SimulatedProcess) -> [DeviceTransaction] {
        withQueue { state in
            guard state.running, state.generation == process.generation else { return [] }
            return state.unfinished
        }
    }

    /// Hands `entry` to every running `Transaction.updates` listener.
    func yieldToListeners(_ entry: DeviceTransaction) {
        let listeners = state.withLock { Array($0.listeners.values) }
        for listener in listeners { listener.yield(entry) }
    }
}
