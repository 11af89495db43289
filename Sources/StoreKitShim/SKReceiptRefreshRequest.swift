import AppStoreSimulator
import Foundation

/// Fetches the app receipt from the App Store (it is missing after a reinstall until then). Not `Sendable`.
@available(*, deprecated, message: "Use Transaction.all and AppTransaction.shared")
open class SKReceiptRefreshRequest: SKRequest {
    /// Test-environment properties of the new receipt; nil in production (and ignored here).
    public let receiptProperties: [String: Any]?

    public init(receiptProperties properties: [String: Any]?) {
        receiptProperties = properties
        super.init()
    }

    override func run() async {
        guard let process else { return delegate?.request(self, didFailWithError: SKError(.clientInvalid)) ?? () }
        guard !process.device.isOffline else { return delegate?.request(self, didFailWithError: SKError.offline) ?? () }
        do {
            try await process.device.refreshReceipt(process)
            delegate?.requestDidFinish(self)
        } catch {
            delegate?.request(self, didFailWithError: error)
        }
    }
}
