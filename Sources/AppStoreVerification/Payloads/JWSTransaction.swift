import Foundation
import PurserCore

/// The decoded payload of an App Store signed transaction (Apple's `JWSTransactionDecodedPayload`), with Apple's
/// field names. Dates are milliseconds since 1970 as Apple sends them; `Date` views are provided.
public struct JWSTransaction: Codable, Hashable, Sendable {
    public var transactionId: String
    public var originalTransactionId: String?
    public var bundleId: String
    public var productId: String
    public var purchaseDate: Int64?
    public var originalPurchaseDate: Int64?
    public var quantity: Int?
    /// "Consumable", "Non-Consumable", "Auto-Renewable Subscription" or "Non-Renewing Subscription".
    public var type: String?
    public var appAccountToken: String?
    public var inAppOwnershipType: String?
    public var signedDate: Int64?
    public var environment: String?
    public var transactionReason: String?
    public var storefront: String?
    public var storefrontId: String?
    /// Price in milliunits of `currency` (990 means 0.99).
    public var price: Int64?
    public var currency: String?
    public var revocationDate: Int64?
    public var revocationReason: Int?
    public var expiresDate: Int64?
    public var webOrderLineItemId: String?
    public var subscriptionGroupIdentifier: String?
    /// The app download this purchase was made from: one id per Apple account and app, on all its purchases.
    public var appTransactionId: String?

    public init(transactionId: String, bundleId: String, productId: String) {
        self.transactionId = transactionId
        self.bundleId = bundleId
        self.productId = productId
    }

    /// `signedDate` as a date: the moment Apple signed the payload.
    public var signedAt: Date? { signedDate.map(Date.init(appStoreMilliseconds:)) }

    /// The transaction as the ledger sees it. An `appAccountToken` that is not a UUID counts as absent.
    public func appleTransaction() -> AppleTransaction {
        AppleTransaction(
            transactionID: transactionId,
            originalTransactionID: originalTransactionId ?? transactionId,
            bundleID: bundleId,
            productID: productId,
            type: type,
            quantity: max(quantity ?? 1, 1),
            purchaseDate: Date(appStoreMilliseconds: purchaseDate ?? signedDate ?? 0),
            appAccountToken: appAccountToken.flatMap(OrderID.init),
            environment: environment.flatMap(AppStoreEnvironment.init(rawValue:)) ?? .production,
            revocationDate: revocationDate.map(Date.init(appStoreMilliseconds:)),
            appTransactionID: appTransactionId.flatMap { $0.isEmpty ? nil : $0 }
        )
    }
}

extension Date {
    /// A date from Apple's milliseconds-since-1970 timestamps.
    public init(appStoreMilliseconds milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Milliseconds since 1970, as Apple's payloads carry dates.
    public var appStoreMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }
}
