import Foundation

extension AppStoreServerAPI {
    /// The optional filters of Get Transaction History, sent as query parameters. Send the same filters with every
    /// `revision` of one walk through the history.
    public struct TransactionHistoryQuery: Hashable, Sendable {
        /// Apple's product types (`productType`).
        public enum ProductType: String, Codable, Hashable, Sendable, CaseIterable {
            case autoRenewable = "AUTO_RENEWABLE"
            case nonRenewable = "NON_RENEWABLE"
            case consumable = "CONSUMABLE"
            case nonConsumable = "NON_CONSUMABLE"
        }

        /// The order of the answer (`sort`); Apple's default is ascending.
        public enum Sort: String, Codable, Hashable, Sendable, CaseIterable {
            case ascending = "ASCENDING"
            case descending = "DESCENDING"
        }

        /// Only transactions purchased at or after this date (`startDate`, milliseconds).
        public var startDate: Date?
        /// Only transactions purchased before this date (`endDate`, milliseconds).
        public var endDate: Date?
        /// Only these products (`productId`, repeated).
        public var productIds: [String]
        /// Only these product types (`productType`, repeated).
        public var productTypes: [ProductType]
        public var sort: Sort?
        /// Only these subscription groups (`subscriptionGroupIdentifier`, repeated).
        public var subscriptionGroupIdentifiers: [String]
        /// `PURCHASED` or `FAMILY_SHARED` (`inAppOwnershipType`).
        public var inAppOwnershipType: String?
        /// `true`: only refunded or revoked transactions; `false`: only the others (`revoked`).
        public var revoked: Bool?

        public init(
            startDate: Date? = nil, endDate: Date? = nil, productIds: [String] = [],
            productTypes: [ProductType] = [], sort: Sort? = nil, subscriptionGroupIdentifiers: [String] = [],
            inAppOwnershipType: String? = nil, revoked: Bool? = nil
        ) {
            self.startDate = startDate
            self.endDate = endDate
            self.productIds = productIds
            self.productTypes = productTypes
            self.sort = sort
            self.subscriptionGroupIdentifiers = subscriptionGroupIdentifiers
            self.inAppOwnershipType = inAppOwnershipType
            self.revoked = revoked
        }

        /// The query parameters, `revision` first when given.
        public func queryItems(revision: String?) -> [URLQueryItem] {
            var items: [URLQueryItem] = []
            if let revision { items.append(URLQueryItem(name: "revision", value: revision)) }
            if let startDate { items.append(.init(name: "startDate", value: String(startDate.appStoreMilliseconds))) }
            if let endDate { items.append(.init(name: "endDate", value: String(endDate.appStoreMilliseconds))) }
            items += productIds.map { URLQueryItem(name: "productId", value: $0) }
            items += productTypes.map { URLQueryItem(name: "productType", value: $0.rawValue) }
            if let sort { items.append(URLQueryItem(name: "sort", value: sort.rawValue)) }
            items += subscriptionGroupIdentifiers.map { URLQueryItem(name: "subscriptionGroupIdentifier", value: $0) }
            if let inAppOwnershipType { items.append(.init(name: "inAppOwnershipType", value: inAppOwnershipType)) }
            if let revoked { items.append(URLQueryItem(name: "revoked", value: revoked ? "true" : "false")) }
            return items
        }
    }

    /// One page of Get Transaction History v2 (`GET /inApps/v2/history/{transactionId}`), up to 20 transactions.
    public struct HistoryResponse: Codable, Hashable, Sendable {
        /// Pass it back as `revision` for the next page (or, once `hasMore` is false, later, for what is new).
        public var revision: String
        public var hasMore: Bool
        public var bundleId: String
        /// Present in production.
        public var appAppleId: Int64?
        /// `Sandbox` or `Production`.
        public var environment: String
        /// Each a JWS signed by the App Store (a `JWSTransaction`).
        public var signedTransactions: [String]

        public init(
            revision: String, hasMore: Bool, bundleId: String, appAppleId: Int64?, environment: String,
            signedTransactions: [String]
        ) {
            self.revision = revision
            self.hasMore = hasMore
            self.bundleId = bundleId
            self.appAppleId = appAppleId
            self.environment = environment
            self.signedTransactions = signedTransactions
        }
    }

    /// Every page of a transaction history, as `AppStoreServerAPIClient.getAllTransactionHistory` collects it.
    public struct TransactionHistory: Hashable, Sendable {
        /// In the order Apple sent them, pages concatenated.
        public var signedTransactions: [String]
        /// The last page's revision: start here next time to get only what is new.
        public var revision: String?
        public var bundleId: String?
        public var environment: String?
        /// How many pages were fetched.
        public var pages: Int

        public init(
            signedTransactions: [String] = [], revision: String? = nil, bundleId: String? = nil,
            environment: String? = nil, pages: Int = 0
        ) {
            self.signedTransactions = signedTransactions
            self.revision = revision
            self.bundleId = bundleId
            self.environment = environment
            self.pages = pages
        }
    }
}
