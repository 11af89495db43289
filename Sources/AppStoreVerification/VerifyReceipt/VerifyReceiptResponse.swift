import Foundation
import PurserCore

/// Apple's `verifyReceipt` answer; the coding keys are Apple's field names. Numbers and dates arrive as strings, as
/// Apple sends them.
public struct VerifyReceiptResponse: Codable, Hashable, Sendable {
    public struct Receipt: Codable, Hashable, Sendable {
        public var bundleId: String
        public var applicationVersion: String?
        public var originalApplicationVersion: String?
        public var receiptCreationDateMs: String?
        public var inApp: [InApp]

        public init(
            bundleId: String, applicationVersion: String?, originalApplicationVersion: String?,
            receiptCreationDateMs: String?, inApp: [InApp]
        ) {
            self.bundleId = bundleId
            self.applicationVersion = applicationVersion
            self.originalApplicationVersion = originalApplicationVersion
            self.receiptCreationDateMs = receiptCreationDateMs
            self.inApp = inApp
        }

        enum CodingKeys: String, CodingKey {
            case bundleId = "bundle_id"
            case applicationVersion = "application_version"
            case originalApplicationVersion = "original_application_version"
            case receiptCreationDateMs = "receipt_creation_date_ms"
            case inApp = "in_app"
        }
    }

    /// One entry of `receipt.in_app`.
    public struct InApp: Codable, Hashable, Sendable {
        public var quantity: String
        public var productId: String
        public var transactionId: String
        public var originalTransactionId: String?
        public var purchaseDateMs: String?
        public var originalPurchaseDateMs: String?
        public var cancellationDateMs: String?
        public var cancellationReason: String?
        public var appAccountToken: String?
        public var inAppOwnershipType: String?
        public var isTrialPeriod: String?

        public init(
            quantity: String, productId: String, transactionId: String, originalTransactionId: String?,
            purchaseDateMs: String?, originalPurchaseDateMs: String?, cancellationDateMs: String? = nil,
            cancellationReason: String? = nil, appAccountToken: String? = nil,
            inAppOwnershipType: String? = "PURCHASED", isTrialPeriod: String? = "false"
        ) {
            self.quantity = quantity
            self.productId = productId
            self.transactionId = transactionId
            self.originalTransactionId = originalTransactionId
            self.purchaseDateMs = purchaseDateMs
            self.originalPurchaseDateMs = originalPurchaseDateMs
            self.cancellationDateMs = cancellationDateMs
            self.cancellationReason = cancellationReason
            self.appAccountToken = appAccountToken
            self.inAppOwnershipType = inAppOwnershipType
            self.isTrialPeriod = isTrialPeriod
        }

        enum CodingKeys: String, CodingKey {
            case quantity
            case productId = "product_id"
            case transactionId = "transaction_id"
            case originalTransactionId = "original_transaction_id"
            case purchaseDateMs = "purchase_date_ms"
            case originalPurchaseDateMs = "original_purchase_date_ms"
            case cancellationDateMs = "cancellation_date_ms"
            case cancellationReason = "cancellation_reason"
            case appAccountToken = "app_account_token"
            case inAppOwnershipType = "in_app_ownership_type"
            case isTrialPeriod = "is_trial_period"
        }

        /// The entry as the ledger sees it. A cancelled entry carries its revocation date.
        public func appleTransaction(bundleID: String, environment: AppStoreEnvironment) -> AppleTransaction {
            let milliseconds = { (text: String?) in text.flatMap(Int64.init).map(Date.init(appStoreMilliseconds:)) }
            return AppleTransaction(
                transactionID: transactionId, originalTransactionID: originalTransactionId ?? transactionId,
                bundleID: bundleID, productID: productId, type: nil, quantity: max(Int(quantity) ?? 1, 1),
                purchaseDate: milliseconds(purchaseDateMs) ?? Date(timeIntervalSince1970: 0),
                appAccountToken: appAccountToken.flatMap(OrderID.init), environment: environment,
                revocationDate: milliseconds(cancellationDateMs))
        }
    }

    public var status: Int
    /// "Production" or "Sandbox".
    public var environment: String?
    public var receipt: Receipt?
    public var isRetryable: Bool?

    public init(status: Int, environment: String?, receipt: Receipt?, isRetryable: Bool? = nil) {
        self.status = status
        self.environment = environment
        self.receipt = receipt
        self.isRetryable = isRetryable
    }

    enum CodingKeys: String, CodingKey {
        case status, environment, receipt
        case isRetryable = "is-retryable"
    }
}

/// Apple's `verifyReceipt` request body.
public struct VerifyReceiptRequest: Codable, Hashable, Sendable {
    public var receiptData: String
    public var password: String?
    public var excludeOldTransactions: Bool?

    public init(receiptData: String, password: String?, excludeOldTransactions: Bool? = false) {
        self.receiptData = receiptData
        self.password = password
        self.excludeOldTransactions = excludeOldTransactions
    }

    enum CodingKeys: String, CodingKey {
        case receiptData = "receipt-data"
        case password
        case excludeOldTransactions = "exclude-old-transactions"
    }
}
