import AppStoreSimulator
import Purser
import PurserStoreKitSimulated

/// Which StoreKit an app on a device uses.
public enum StoreKitGeneration: String, Sendable, Codable, CaseIterable {
    case storeKit1, storeKit2

    /// The adapter an app of this generation builds at launch, inside `process` (its StoreKit calls reach the
    /// process's device).
    public func makeAdapter(in process: SimulatedProcess, purchasingTimeout: Duration = .seconds(3)) -> any StoreAdapter
    {
        let device = process.device
        return SimulatedProcess.$current.withValue(process) {
            switch self {
            case .storeKit1: StoreKit1Adapter(receiptURL: { device.receiptURL }, purchasingTimeout: purchasingTimeout)
            case .storeKit2: StoreKit2Adapter()
            }
        }
    }
}
