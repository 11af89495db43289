import Foundation

/// The payload of a StoreKit 1 app receipt (the PKCS#7 file StoreKit keeps at `appStoreReceiptURL`), decoded from
/// its ASN.1 attributes. Nothing in it is trusted until `verifyReceipt` (or a signature check) confirms it.
public struct AppReceipt: Sendable, Hashable, Codable {
    /// Attribute 2.
    public var bundleId: String
    /// Attribute 3.
    public var applicationVersion: String?
    /// Attribute 19.
    public var originalApplicationVersion: String?
    /// Attribute 12.
    public var creationDate: Date?
    /// Attribute 21.
    public var expirationDate: Date?
    /// Attribute 0: the environment the receipt was issued in ("Production", "ProductionSandbox", "Xcode"), when
    /// present. Not documented by Apple; informational only.
    public var environment: String?
    /// Attribute 17, in the order the receipt lists them.
    public var inAppPurchases: [InAppPurchaseReceipt]

    public init(
        bundleId: String, applicationVersion: String? = nil, originalApplicationVersion: String? = nil,
        creationDate: Date? = nil, expirationDate: Date? = nil, environment: String? = nil,
        inAppPurchases: [InAppPurchaseReceipt] = []
    ) {
        self.bundleId = bundleId
        self.applicationVersion = applicationVersion
        self.originalApplicationVersion = originalApplicationVersion
        self.creationDate = creationDate
        self.expirationDate = expirationDate
        self.environment = environment
        self.inAppPurchases = inAppPurchases
    }

    /// ASN.1 attribute types of the receipt payload, as Apple documents them.
    public enum Field {
        public static let environment = 0
        public static let bundleId = 2
        public static let applicationVersion = 3
        public static let opaqueValue = 4
        public static let sha1Hash = 5
        public static let creationDate = 12
        public static let inAppPurchase = 17
        public static let originalApplicationVersion = 19
        public static let expirationDate = 21
    }
}

/// One in-app purchase receipt (attribute 17 of an app receipt).
public struct InAppPurchaseReceipt: Sendable, Hashable, Codable {
    /// 1701.
    public var quantity: Int
    /// 1702.
    public var productId: String
    /// 1703.
    public var transactionId: String
    /// 1705.
    public var originalTransactionId: String?
    /// 1704.
    public var purchaseDate: Date?
    /// 1706.
    public var originalPurchaseDate: Date?
    /// 1708 (subscriptions).
    public var expiresDate: Date?
    /// 1711 (subscriptions).
    public var webOrderLineItemId: Int64?
    /// 1712: set when Apple refunded or revoked the purchase.
    public var cancellationDate: Date?
    /// 1713 (subscriptions).
    public var isTrialPeriod: Bool?
    /// 1719 (subscriptions).
    public var isInIntroOfferPeriod: Bool?
    /// 1721 (subscriptions).
    public var promotionalOfferId: String?

    public init(
        quantity: Int = 1, productId: String, transactionId: String, originalTransactionId: String? = nil,
        purchaseDate: Date? = nil, originalPurchaseDate: Date? = nil, expiresDate: Date? = nil,
        webOrderLineItemId: Int64? = nil, cancellationDate: Date? = nil, isTrialPeriod: Bool? = nil,
        isInIntroOfferPeriod: Bool? = nil, promotionalOfferId: String? = nil
    ) {
        self.quantity = quantity
        self.productId = productId
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.webOrderLineItemId = webOrderLineItemId
        self.cancellationDate = cancellationDate
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.promotionalOfferId = promotionalOfferId
    }

    /// ASN.1 attribute types of an in-app purchase receipt, as Apple documents them.
    public enum Field {
        public static let quantity = 1701
        public static let productId = 1702
        public static let transactionId = 1703
        public static let purchaseDate = 1704
        public static let originalTransactionId = 1705
        public static let originalPurchaseDate = 1706
        public static let expiresDate = 1708
        public static let webOrderLineItemId = 1711
        public static let cancellationDate = 1712
        public static let isTrialPeriod = 1713
        public static let isInIntroOfferPeriod = 1719
        public static let promotionalOfferId = 1721
    }
}
