import AppStoreVerification
import Foundation
import Synchronization

// The app receipt: a file in the app's container, rewritten at each StoreKit 1 payment and receipt refresh, when it
// carries the App Store's current record: the device's unfinished consumables and other purchases.
extension SimulatedDevice {
    /// The app receipt's file (what `Bundle.main.appStoreReceiptURL` points to on a phone).
    public var receiptURL: URL { containerDirectory.appendingPathComponent("StoreKit/receipt") }

    /// `SKReceiptRefreshRequest`: the device fetches its receipt from the App Store.
    public func refreshReceipt(_ process: SimulatedProcess) async throws(SimulatorError) {
        guard isRunning(process) else { throw SimulatorError(.conflict, "the app is not running") }
        state.withLock { $0.receiptPresent = true }
        await writeReceipt()
    }

    /// Writes the App Store's current receipt for the device, if the device has one and the app is installed.
    func writeReceipt() async {
        guard state.withLock({ $0.receiptPresent }),
            FileManager.default.fileExists(atPath: containerDirectory.path),
            let receipt = try? await store.receipt(deviceId: id, bundleID: configuration.bundleID)
        else { return }
        let directory = receiptURL.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? Data(receipt.der).write(to: receiptURL, options: .atomic)
    }
}
