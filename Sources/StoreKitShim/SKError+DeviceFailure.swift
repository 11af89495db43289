import AppStoreSimulator
import Foundation

extension SKError {
    /// How a real device reports a failed StoreKit 1 request: an offline device answers `unknown` ("Cannot connect
    /// to iTunes Store") with the URL loading error underneath, not one of the cloud-service codes.
    init(failure: DeviceFailure) {
        switch failure {
        case .cancelled: self.init(.paymentCancelled)
        case .notAllowed: self.init(.paymentNotAllowed)
        case .productUnavailable: self.init(.storeProductNotAvailable)
        case .network: self = .offline
        case .unknown: self.init(.unknown)
        }
    }

    /// What StoreKit 1 reports when the device has no connection.
    static let offline = SKError(
        .unknown,
        userInfo: [
            NSLocalizedDescriptionKey: "Cannot connect to iTunes Store",
            NSUnderlyingErrorKey: NSError(domain: NSURLErrorDomain, code: NSURLErrorNotConnectedToInternet),
        ])
}
