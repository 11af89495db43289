import Foundation

/// One entry of a simulated device's StoreKit queue, as the device reports it to the app: a payment in progress,
/// a purchase, a restored purchase, a failure or an Ask to Buy deferral. StoreKit 1 and StoreKit 2 shims present it under Apple's names.
public struct DeviceTransaction: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        case purchasing, purchased, failed, restored, deferred
    }

    /// Stable within the device's queue: the Apple transaction id once purchased, a local id before.
    public var queueID: String
    public var state: State
    public var productID: String
    public var quantity: Int
    /// StoreKit 1's `payment.applicationUsername` as this callback carries it (it can come back nil).
    public var applicationUsername: String?
    public var transactionID: String?
    public var purchaseDate: Date?
    /// StoreKit 2's `jwsRepresentation` of a purchased transaction.
    public var signedTransaction: String?
    /// Apple's record of the account token (`appAccountToken`), as StoreKit 2 reports it.
    public var appAccountToken: UUID?
    /// Why a `failed` entry failed.
    public var failure: DeviceFailure?
    /// For a `restored` entry, the purchase it restores.
    public var originalTransactionID: String?

    public init(
        queueID: String, state: State, productID: String, quantity: Int, applicationUsername: String? = nil,
        transactionID: String? = nil, purchaseDate: Date? = nil, signedTransaction: String? = nil,
        appAccountToken: UUID? = nil, failure: DeviceFailure? = nil, originalTransactionID: String? = nil
    ) {
        self.queueID = queueID
        self.state = state
        self.productID = productID
        self.quantity = quantity
        self.applicationUsername = applicationUsername
        self.transactionID = transactionID
        self.purchaseDate = purchaseDate
        self.signedTransaction = signedTransaction
        self.appAccountToken = appAccountToken
        self.failure = failure
        self.originalTransactionID = originalTransactionID
    }
}

/// Why a simulated payment failed, in the categories StoreKit's errors fall into.
public enum DeviceFailure: String, Error, Sendable, Hashable, Codable {
    case cancelled
    case notAllowed
    case productUnavailable
    case network
    case unknown
}
