import Foundation

/// The request and response bodies of the App Store Server API, with Apple's JSON field names. Shared by
/// `AppStoreServerAPIClient` and the App Store simulator, which answers with the same types.
///
/// Larger groups live in extension files: `+TransactionHistory` (Get Transaction History v2 and its query),
/// `+ConsumptionRequest` (Send Consumption Information) and `+NotificationHistory` (Get Notification History).
public enum AppStoreServerAPI {
    /// The error body of every non-2xx answer: `{"errorCode": 4040010, "errorMessage": "Transaction id not found."}`.
    public struct ErrorResponse: Codable, Hashable, Sendable {
        public var errorCode: Int
        public var errorMessage: String?

        public init(errorCode: Int, errorMessage: String?) {
            self.errorCode = errorCode
            self.errorMessage = errorMessage
        }
    }

    /// Get Transaction Info (`GET /inApps/v1/transactions/{transactionId}`).
    public struct TransactionInfoResponse: Codable, Hashable, Sendable {
        /// The transaction as a JWS signed by the App Store (a `JWSTransaction`).
        public var signedTransactionInfo: String

        public init(signedTransactionInfo: String) {
            self.signedTransactionInfo = signedTransactionInfo
        }
    }

    /// Look Up Order ID (`GET /inApps/v1/lookup/{orderId}`).
    public struct OrderLookupResponse: Codable, Hashable, Sendable {
        /// `0`: the order id is valid; `1`: it is not (no such order for this app).
        public var status: Int
        /// The order's transactions, each a JWS signed by the App Store; empty for an invalid order id.
        public var signedTransactions: [String]

        public static let valid = 0
        public static let invalid = 1

        public init(status: Int, signedTransactions: [String]) {
            self.status = status
            self.signedTransactions = signedTransactions
        }

        /// Whether Apple knows the order (`status == 0`).
        public var isValid: Bool { status == Self.valid }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            status = try container.decode(Int.self, forKey: .status)
            signedTransactions = try container.decodeIfPresent([String].self, forKey: .signedTransactions) ?? []
        }
    }

    /// Get Refund History (`GET /inApps/v2/refund/lookup/{transactionId}?revision=…`), up to 20 per page.
    public struct RefundHistoryResponse: Codable, Hashable, Sendable {
        public var signedTransactions: [String]
        /// Pass it back as `revision` for the next page.
        public var revision: String
        public var hasMore: Bool

        public init(signedTransactions: [String], revision: String, hasMore: Bool) {
            self.signedTransactions = signedTransactions
            self.revision = revision
            self.hasMore = hasMore
        }
    }

    /// Request a Test Notification (`POST /inApps/v1/notifications/test`).
    public struct SendTestNotificationResponse: Codable, Hashable, Sendable {
        public var testNotificationToken: String

        public init(testNotificationToken: String) {
            self.testNotificationToken = testNotificationToken
        }
    }

    /// The body of Set App Account Token (`PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken`).
    public struct UpdateAppAccountTokenRequest: Codable, Hashable, Sendable {
        /// A UUID, lowercase on the wire.
        public var appAccountToken: String

        public init(appAccountToken: UUID) {
            self.appAccountToken = appAccountToken.uuidString.lowercased()
        }
    }
}
