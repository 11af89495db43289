import AppStoreSimulator
import Foundation

/// A device for the whole run.
public struct DevicePlan: Sendable {
    public var index: Int
    public var id: String
    public var generation: StoreKitGeneration
    /// Keychain-like journal (survives reinstall) or the app container's.
    public var keychainJournal: Bool
    public var losesApplicationUsername: Bool
    public var duplicateCallbacks: Bool
    public var returnsAfterFaults: Bool
    public var purchases: [PlannedPurchase]
    /// The app on the device (`--apps`): its purchases are signed for this bundle; `nil`: the run's one app.
    public var bundleID: String? = nil

    /// The phone, paying through `store`, with this plan's StoreKit behaviour; `runSeed` is the run's seed.
    func makeDevice(store: SimulatedAppStore, directory: URL, runSeed: UInt64) -> SimulatedDevice {
        SimulatedDevice(
            id: id, store: store, products: ChaosServer.deviceProducts, directory: directory.appendingPathComponent(id),
            configuration: .init(
                lostApplicationUsername: losesApplicationUsername ? .onCallback(rate: 0.5) : .never,
                duplicateCallbacks: duplicateCallbacks, seed: runSeed &+ UInt64(index), bundleID: bundleID))
    }

    /// Everyone who bought on the device, the last one signed in last (the heal phase signs each in once).
    public var users: [String] {
        var users: [String] = []
        for purchase in purchases.reversed() where !users.contains(purchase.user) { users.insert(purchase.user, at: 0) }
        return users
    }
}
