import AppStoreSimulator
import Foundation

public enum SKPaymentTransactionState: Int, Sendable {
    case purchasing, purchased, failed, restored, deferred
}

public protocol SKPaymentTransactionObserver: AnyObject {
    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction])
}

/// StoreKit 1's view of one queue entry.
open class SKPaymentTransaction: NSObject, @unchecked Sendable {
    public let transactionState: SKPaymentTransactionState
    public let transactionIdentifier: String?
    public let transactionDate: Date?
    public let payment: SKPayment
    public let error: (any Error)?
    let queueID: String

    init(_ entry: DeviceTransaction) {
        switch entry.state {
        case .purchasing: transactionState = .purchasing
        case .purchased: transactionState = .purchased
        case .failed: transactionState = .failed
        case .deferred: transactionState = .deferred
        }
        transactionIdentifier = entry.transactionID
        transactionDate = entry.purchaseDate
        let payment = SKMutablePayment()
        payment.productIdentifier = entry.productID
        payment.quantity = entry.quantity
        payment.applicationUsername = entry.applicationUsername
        self.payment = payment
        error = entry.failure.map(SKError.init)
        queueID = entry.queueID
    }
}

open class SKPayment: NSObject, @unchecked Sendable {
    var storedProductIdentifier = ""
    var storedQuantity = 1
    var storedApplicationUsername: String?

    open var productIdentifier: String { storedProductIdentifier }
    open var quantity: Int { storedQuantity }
    open var applicationUsername: String? { storedApplicationUsername }
}

open class SKMutablePayment: SKPayment, @unchecked Sendable {
    override open var productIdentifier: String {
        get { storedProductIdentifier }
        set { storedProductIdentifier = newValue }
    }
    override open var quantity: Int {
        get { storedQuantity }
        set { storedQuantity = newValue }
    }
    override open var applicationUsername: String? {
        get { storedApplicationUsername }
        set { storedApplicationUsername = newValue }
    }
}

/// StoreKit 1's error, with Apple's codes.
public struct SKError: Error, Sendable, Hashable {
    public enum Code: Int, Sendable {
        case unknown = 0
        case clientInvalid, paymentCancelled, paymentInvalid, paymentNotAllowed, storeProductNotAvailable
        case cloudServicePermissionDenied, cloudServiceNetworkConnectionFailed, cloudServiceRevoked
    }

    public let code: Code

    public init(_ code: Code) { self.code = code }

    init(_ failure: DeviceFailure) {
        switch failure {
        case .cancelled: code = .paymentCancelled
        case .notAllowed: code = .paymentNotAllowed
        case .productUnavailable: code = .storeProductNotAvailable
        case .network: code = .cloudServiceNetworkConnectionFailed
        case .unknown: code = .unknown
        }
    }
}
