import Synchronization

// What a StoreKit 1 transaction looks like when StoreKit hands it over: its `applicationUsername` may be gone, at a
// configured rate on every callback, or on every redelivery to a later run of the app.
extension SimulatedDevice {
    /// `entry` as the current run of the app sees it in a callback or in `SKPaymentQueue.transactions`.
    func storeKit1View(of entry: DeviceTransaction) -> DeviceTransaction {
        var view = entry
        guard view.applicationUsername != nil else { return view }
        let (callback, redelivered) = state.withLock { state -> (Int, Bool) in
            state.callbacks[entry.queueID, default: 0] += 1
            let paid = state.paidGeneration[entry.queueID]
            return (state.callbacks[entry.queueID] ?? 0, paid.map { $0 < state.generation } ?? false)
        }
        if case .onCallback(let rate) = configuration.lostApplicationUsername,
            draw("callback:\(entry.queueID):\(callback)") < rate
        {
            view.applicationUsername = nil
        }
        if redelivered, draw("redelivery:\(entry.queueID)") < configuration.applicationUsernameLostOnRedelivery {
            view.applicationUsername = nil
        }
        return view
    }

    /// The seeded number for the choice named `key`.
    func draw(_ key: String) -> Double {
        SeededDraw.unit(seed: configuration.seed, key: key)
    }
}
