import AppStoreVerification
import Foundation
import PurserCore
import Synchronization

// StoreKit 1: `SKPaymentQueue` and its observers. Callbacks may lose `applicationUsername`, the queue's transactions
// are visible only once an observer is registered, and a product whose earlier purchase is unfinished only ever
// reports `purchasing`.
extension SimulatedDevice {
    /// A StoreKit 1 observer callback: `paymentQueue(_:updatedTransactions:)`.
    public typealias Observer = @Sendable ([DeviceTransaction]) -> Void

    /// Registers a payment-queue observer; StoreKit redelivers every unfinished transaction to it.
    public func addObserver(_ process: SimulatedProcess, _ observer: @escaping Observer) -> Int? {
        let registered: (id: Int, queue: [DeviceTransaction])? = withQueue { state in
            guard state.running, state.generation == process.generation else { return nil }
            state.nextID += 1
            state.observers[state.nextID] = observer
            return (state.nextID, state.unfinished + state.restored + state.failed)
        }
        guard let registered else { return nil }
        let redelivered = registered.queue.map { storeKit1View(of: $0) }
        if !redelivered.isEmpty { call(process, observer, redelivered) }
        return registered.id
    }

    public func removeObserver(_ process: SimulatedProcess, id: Int) {
        state.withLock { state in
            guard state.generation == process.generation else { return }
            state.observers[id] = nil
        }
    }

    /// `SKPaymentQueue.add(_:)`: reports `purchasing`, then the outcome. A product with an unfinished purchase only
    /// ever reports `purchasing`, and nothing is charged; an offline device fails the payment. `label` names the
    /// payment in `charges`.
    public func addPayment(
        _ process: SimulatedProcess, productID: String, quantity: Int, applicationUsername: String?,
        label: String? = SimulatedDevice.paymentLabel
    ) async {
        guard isRunning(process) else { return }
        let purchasing = DeviceTransaction(
            queueID: nextLocalID(), state: .purchasing, productID: productID,
            quantity: quantity, applicationUsername: applicationUsername)
        deliverToObservers([purchasing])
        let blocked = withQueue { state in
            state.unfinished.contains { $0.productID == productID && catalog[productID]?.kind != .nonConsumable }
        }
        if blocked { return }
        guard !isOffline else { return fail(purchasing, .network) }
        guard catalog[productID] != nil else {
            return fail(purchasing, .productUnavailable)
        }
        let outcome = await paymentSheet()
        switch outcome {
        case .pay, .payAfter, .payWhenReleased:
            defer { chargeLanded(after: outcome) }
            let token = applicationUsername.flatMap(UUID.init(uuidString:)).map(\.uuidString)
            guard
                let entry = try? await charge(
                    productID, quantity: quantity, username: applicationUsername,
                    tokenForApple: token, label: label)
            else { return fail(purchasing, .unknown) }
            deliverPurchased(entry)
        case .cancel:
            fail(purchasing, .cancelled)
        case .fail(let failure):
            fail(purchasing, failure)
        case .askToBuy:
            var deferred = purchasing
            deferred.state = .deferred
            let token = applicationUsername.flatMap(UUID.init(uuidString:)).map(\.uuidString)
            state.withLock { $0.deferred.append(Deferred(entry: deferred, tokenForApple: token, label: label)) }
            deliverToObservers([deferred])
        }
    }

    /// `SKPaymentQueue.transactions`: what the queue holds now. Apple leaves it undefined while no observer is
    /// registered; here it is empty until the running app has one.
    public func queueTransactions(_ process: SimulatedProcess) -> [DeviceTransaction] {
        let queue = withQueue { state -> [DeviceTransaction] in
            guard state.running, state.generation == process.generation, !state.observers.isEmpty else { return [] }
            return state.unfinished + state.restored + state.failed + state.deferred.map(\.entry)
        }
        return queue.map { storeKit1View(of: $0) }
    }

    /// Tells the observers that a purchase was charged (twice, with `duplicateCallbacks`).
    func deliverPurchased(_ entry: DeviceTransaction) {
        deliverToObservers([entry])
        if configuration.duplicateCallbacks { deliverToObservers([entry]) }
    }

    private func fail(_ entry: DeviceTransaction, _ failure: DeviceFailure) {
        var failed = entry
        failed.state = .failed
        failed.failure = failure
        state.withLock { $0.failed.append(failed) }
        deliverToObservers([failed])
    }

    /// Calls every observer of the running app with `entries`, as the callback shows them.
    func deliverToObservers(_ entries: [DeviceTransaction]) {
        let targets = state.withLock { state -> (SimulatedProcess, [Observer])? in
            guard state.running else { return nil }
            return (SimulatedProcess(device: self, generation: state.generation), Array(state.observers.values))
        }
        guard let (process, observers) = targets else { return }
        for observer in observers { call(process, observer, entries.map { storeKit1View(of: $0) }) }
    }

    private func call(_ process: SimulatedProcess, _ observer: Observer, _ entries: [DeviceTransaction]) {
        SimulatedProcess.$current.withValue(process) { observer(entries) }
    }
}
