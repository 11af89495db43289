import AppStoreVerification
import Foundation
import Synchronization

// StoreKit's `AppTransaction.shared`: fetched from the App Store once, then served from StoreKit's cache (offline
// too) until the app is deleted.
extension SimulatedDevice {
    /// The app's signed app transaction. The first fetch needs the network (an offline device answers `.network`);
    /// later ones come from the cache, as StoreKit keeps it.
    public func appTransaction(_ process: SimulatedProcess) async throws(DeviceFailure) -> String {
        guard isRunning(process) else { throw .unknown }
        if let cached = state.withLock({ $0.appTransaction }) { return cached }
        guard !isOffline else { throw .network }
        guard
            let signed = try? await store.appTransaction(
                deviceId: id, bundleID: configuration.bundleID, environment: configuration.environment
            ).signed
        else { throw .unknown }
        state.withLock { $0.appTransaction = signed }
        return signed
    }
}
