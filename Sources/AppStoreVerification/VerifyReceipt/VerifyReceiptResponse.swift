import Foundation
import PurserCore

/// Apple's `verifyReceipt` answer, with Apple's field names. Numbers and dates arrive as strings, as Apple sends them.
public struct VerifyReceiptResponse: Codable, Hashable, Sendable {
    public struct Receipt: Codable, Hashable, Sendable {
        public var bundle_id: String
        public var application_version: String?
        public var original_application_version: String?
        public var receipt_creation_date_ms: String?
        public var in_app: [InApp]

        public init(bundle_id: String, application_version: String?, original_application_version: String?,
                    receipt_creation_date_ms: String?, in_app: [InApp]) {
            self.bundle_id = bundle_id
            self.application_version = application_version
            self.original_application_version = original_application_version
            self.receipt_creation_date_ms = receipt_creation_date_ms
            self.in_app = in_app
        }
    }

    /// One entry of `receipt.in_app`.
    public struct InApp: Codable, Hashable, Sendable {
        public var quantity: String
        public var product_id: String
        public var transaction_id: String
        public var original_transaction_id: String?
        public var purchase_date_ms: String?
        public var original_purchase_date_ms: String?
        public var cancellation_date_ms: String?
        public var cancellation_reason: String?
        public var app_account_token: String?
        public var in_app_ownership_type: String?
        public var is_trial_period: String?

        public init(quantity: String, product_id: String, transaction_id: String, original_transaction_id: String?,
                    purchase_date_ms: String?, original_purchase_date_ms: String?, cancellation_date_ms: String? = nil,
                    cancellation_reason: String? = nil, app_account_token: String? = nil,
                    in_app_ownership_type: String? = "PURCHASED", is_trial_period: String? = "false") {
            self.quantity = quantity
            self.product_id = product_id
            self.transaction_id = transaction_id
            self.original_transaction_id = original_transaction_id
            self.purchase_date_ms = purchase_date_ms
            self.original_purchase_date_ms = original_purchase_date_ms
            self.cancellation_date_ms = cancellation_date_ms
            self.cancellation_reason = cancellation_reason
            self.app_account_token = app_account_token
            self.in_app_ownership_type = in_app_ownership_type
            self.is_trial_period = is_trial_period
        }

        /// The entry as the ledger sees it. A cancelled entry carries its revocation date.
        public func appleTransaction(bundleID: String, environment: AppStoreEnvironment) -> AppleTransaction {
            let milliseconds = { (text: String?) in text.flatMap(Int64.init).map(Date.init(appStoreMilliseconds:)) }
            return AppleTransaction(
                transactionID: transaction_id, originalTransactionID: original_transaction_id ?? transaction_id,
                bundleID: bundleID, productID: product_id, type: nil, quantity: max(Int(quantity) ?? 1, 1),
                purchaseDate: milliseconds(purchase_date_ms) ?? Date(timeIntervalSince1970: 0),
                appAccountToken: app_account_token.flatMap(OrderID.init), environment: environment,
                revocationDate: milliseconds(cancellation_date_ms))
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
