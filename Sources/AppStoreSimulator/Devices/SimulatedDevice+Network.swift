import Synchronization

// The device's connection: offline, StoreKit fails every request that needs the App Store (payments, product
// requests, receipt refreshes, restores) the way a phone in airplane mode does.
extension SimulatedDevice {
    /// Takes the device off the network, or puts it back.
    public func setOffline(_ offline: Bool) {
        state.withLock { $0.offline = offline }
    }

    /// Whether the device is off the network.
    public var isOffline: Bool {
        state.withLock { $0.offline }
    }
}
