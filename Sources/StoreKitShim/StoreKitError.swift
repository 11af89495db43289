import Foundation

/// StoreKit 2's general error: every case Apple defines.
public enum StoreKitError: Error, Sendable {
    case unknown
    case userCancelled
    case networkError(URLError)
    case systemError(any Error)
    case notAvailableInStorefront
    case notEntitled
    /// The operation does not support this product (iOS 18.4, macOS 15.4 and later).
    @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
    case unsupported
}
