import Foundation

/// An in-app purchase transaction that Apple signed (or `verifyReceipt` confirmed), reduced to what the ledger needs.
public struct AppleTransaction: Hashable, Sendable, Codable {
    public var transactionID: String
    public var originalTransactionID: String
    public var bundleID: String
    public var productID: String
    /// Apple's spelling, e.g. "Consumable"; `nil` when the source does not say.
    public var type: String?
    public var quantity: Int
    public var purchaseDate: Date
    public var appAccountToken: OrderID?
    public var environment: AppStoreEnvironment
    public var revocationDate: Date?
    /// Apple's `appTransactionId`: one per Apple account and app download, the same on every purchase that account
    /// makes in the app (support finds an account's purchases by it); `nil` when the source does not carry it.
    public var appTransactionID: String?

    public init(
        transactionID: String, originalTransactionID: String, bundleID: String, productID: String, type: String?,
        quantity: Int, purchaseDate: Date, appAccountToken: OrderID?, environment: AppStoreEnvironment,
        revocationDate: Date? = nil, appTransactionID: String? = nil
    ) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.bundleID = bundleID
        self.productID = productID
        self.type = type
        self.quantity = quantity
        self.purchaseDate = purchaseDate
        self.appAccountToken = appAccountToken
        self.environment = environment
        self.revocationDate = revocationDate
        self.appTransactionID = appTransactionID
    }
}
