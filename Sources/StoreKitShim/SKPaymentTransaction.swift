import AppStoreSimulator
import Foundation

/// StoreKit 1's view of one queue entry. `Sendable` as Apple's is: it never changes after StoreKit made it.
@available(*, deprecated, message: "Use Transaction")
open class SKPaymentTransaction: NSObject, @unchecked Sendable {
    // @unchecked: every stored property is immutable, and `payment` is never mutated after init.
    public let transactionState: SKPaymentTransactionState
    public let transactionIdentifier: String?
    public let transactionDate: Date?
    public let payment: SKPayment
    public let error: (any Error)?
    /// For a `restored` transaction, the purchase it restores.
    public let original: SKPaymentTransaction?
    let queueID: String

    init(_ entry: DeviceTransaction) {
        switch entry.state {
        case .purchasing: transactionState = .purchasing
        case .purchased: transactionState = .purchased
        case .failed: transactionState = .failed
        case .restored: transactionState = .restored
        case .deferred: transactionState = .deferred
        }
        transactionIdentifier = entry.transactionID
        transactionDate = entry.purchaseDate
        payment = Self.payment(for: entry)
        error = entry.failure.map { SKError(failure: $0) }
        original = entry.originalTransactionID.map { SKPaymentTransaction(originalOf: entry, id: $0) }
        queueID = entry.queueID
    }

    /// The purchased transaction a restored one points to.
    private init(originalOf entry: DeviceTransaction, id: String) {
        transactionState = .purchased
        transactionIdentifier = id
        transactionDate = entry.purchaseDate
        payment = Self.payment(for: entry)
        error = nil
        original = nil
        queueID = id
    }

    private static func payment(for entry: DeviceTransaction) -> SKPayment {
        let payment = SKMutablePayment()
        payment.productIdentifier = entry.productID
        payment.quantity = entry.quantity
        payment.applicationUsername = entry.applicationUsername
        return payment
    }
}
