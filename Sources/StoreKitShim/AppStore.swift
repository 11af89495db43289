import AppStoreSimulator
import Foundation

/// StoreKit 2's App Store, for the members Purser's adapter uses.
public enum AppStore {
    /// Brings the app's transactions up to date with the App Store (on a real device after the user signed in to
    /// it): `Transaction.currentEntitlements` lists what the account bought on any device afterwards. An offline
    /// device throws `StoreKitError.networkError` and a dismissed sign-in `StoreKitError.userCancelled`, as a real
    /// one does.
    public static func sync() async throws {
        guard let process = SimulatedProcess.current else { throw StoreKitError.unknown }
        switch await process.device.syncWithAppStore(process) {
        case nil: return
        case .network: throw StoreKitError.networkError(URLError(.notConnectedToInternet))
        case .cancelled: throw StoreKitError.userCancelled
        case .notAllowed, .productUnavailable, .unknown: throw StoreKitError.unknown
        }
    }
}
