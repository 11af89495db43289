import AppStoreVerification
import Foundation
import PurserCore

extension SimulatedServerAPI {
    /// Get Transaction History v2: one page of the customer's transactions (see the type's notes on customers and
    /// revisions), filtered by Apple's query parameters. The page is chosen on the actor and signed off it, so several
    /// callers' pages are signed at once.
    public nonisolated func transactionHistory(
        transactionID: String, query items: [URLQueryItem], authorization: String?
    ) async throws(AppStoreServerAPIError) -> AppStoreServerAPI.HistoryResponse {
        var response = try await historyPage(transactionID: transactionID, query: items, authorization: authorization)
        var signed: [String] = []
        for transaction in response.transactions { signed.append(try sign(transaction)) }
        response.page.signedTransactions = signed
        return response.page
    }

    /// One page of Get Transaction History v2, its transactions not signed yet.
    private func historyPage(transactionID: String, query items: [URLQueryItem], authorization: String?)
        async throws(AppStoreServerAPIError)
        -> (page: AppStoreServerAPI.HistoryResponse, transactions: [JWSTransaction])
    {
        let key = try await authorize(authorization)
        try Self.requireNumeric(transactionID, else: .invalidTransactionId)
        let (query, revision) = try Self.historyQuery(items)
        let descending = query.sort == .descending
        let position = try revision.map { (revision) throws(AppStoreServerAPIError) in
            try Self.position(in: revision, descending: descending)
        }
        let (anchor, customer) = try await self.customer(of: transactionID, bundleID: key.bundleId)
        let matching = customer.filter { Self.matches($0.purchase.transaction, query) }
        let (page, next, hasMore) = page(of: matching, after: position, descending: descending)
        let environment = anchor.transaction.environment ?? AppStoreEnvironment.sandbox.rawValue
        let production = environment == AppStoreEnvironment.production.rawValue
        let response = AppStoreServerAPI.HistoryResponse(
            revision: Self.revision(next, descending: descending), hasMore: hasMore, bundleId: key.bundleId,
            appAppleId: production ? store.configuration.appAppleID : nil, environment: environment,
            signedTransactions: [])
        return (response, page.map(\.purchase.transaction))
    }

    /// Get Refund History v2: one page of the customer's refunded transactions, oldest first.
    public func refundHistory(transactionID: String, revision: String?, authorization: String?)
        async
        throws(AppStoreServerAPIError) -> AppStoreServerAPI.RefundHistoryResponse
    {
        let key = try await authorize(authorization)
        try Self.requireNumeric(transactionID, else: .invalidTransactionId)
        let position = try revision.map { (revision) throws(AppStoreServerAPIError) in
            try Self.position(in: revision, descending: false)
        }
        let customer = try await self.customer(of: transactionID, bundleID: key.bundleId).customer
        let refunded = customer.filter { $0.purchase.transaction.revocationDate != nil }
        let (page, next, hasMore) = page(of: refunded, after: position, descending: false)
        var signed: [String] = []
        for entry in page { signed.append(try sign(entry.purchase.transaction)) }
        return .init(signedTransactions: signed, revision: Self.revision(next, descending: false), hasMore: hasMore)
    }

    /// Where a transaction stands in a history: Apple sorts by the date of the last change, which in the simulator
    /// is the transaction's `signedDate` (a refund moves it), then by the order of purchase.
    struct Position: Comparable {
        var modified: Int64
        var index: Int

        static func < (lhs: Self, rhs: Self) -> Bool { (lhs.modified, lhs.index) < (rhs.modified, rhs.index) }
        static let first = Position(modified: .min, index: -1)
        static let last = Position(modified: .max, index: .max)
    }

    struct Entry {
        var position: Position
        var purchase: SimulatedPurchase
    }

    /// The purchase named by any of its transaction ids, and every purchase of the same customer (device, bundle,
    /// environment), in history order.
    func customer(of transactionID: String, bundleID: String) async throws(AppStoreServerAPIError)
        -> (anchor: SimulatedPurchase, customer: [Entry])
    {
        guard let anchor = await store.purchase(transactionID: transactionID), anchor.transaction.bundleId == bundleID
        else { throw Self.transactionNotFound() }
        let customer = await store.purchases(deviceId: anchor.deviceId)
            .filter {
                $0.purchase.transaction.bundleId == bundleID
                    && $0.purchase.transaction.environment == anchor.transaction.environment
            }
            .map { position, purchase in
                let transaction = purchase.transaction
                let modified = transaction.signedDate ?? transaction.purchaseDate ?? 0
                return Entry(position: Position(modified: modified, index: position), purchase: purchase)
            }
            .sorted { $0.position < $1.position }
        return (anchor, customer)
    }

    /// Up to `pageSize` entries past `position` in the order asked, the position of the last one returned, and
    /// whether more remain.
    func page(of entries: [Entry], after position: Position?, descending: Bool)
        -> (page: [Entry], next: Position, hasMore: Bool)
    {
        let start = position ?? (descending ? .last : .first)
        let remaining =
            descending
            ? entries.reversed().filter { $0.position < start } : entries.filter { $0.position > start }
        let page = Array(remaining.prefix(pageSize))
        return (page, page.last?.position ?? start, remaining.count > page.count)
    }

    /// A revision: opaque to clients; inside, the direction and the position of the last transaction returned.
    static func revision(_ position: Position, descending: Bool) -> String {
        Base64URL.encode(Data("\(descending ? "desc" : "asc"):\(position.modified):\(position.index)".utf8))
    }

    static func position(in revision: String, descending: Bool) throws(AppStoreServerAPIError) -> Position {
        let text = Base64URL.decode(revision.utf8).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let parts = text.split(separator: ":")
        guard parts.count == 3, parts[0] == (descending ? "desc" : "asc"),
            let modified = Int64(parts[1]), let index = Int(parts[2])
        else { throw badRequest(.invalidRequestRevision, "Invalid request revision.") }
        return Position(modified: modified, index: index)
    }

    /// Apple's query parameters as a query, and the revision; Apple's 400 errors for values it would refuse.
    static func historyQuery(_ items: [URLQueryItem]) throws(AppStoreServerAPIError)
        -> (AppStoreServerAPI.TransactionHistoryQuery, revision: String?)
    {
        typealias Query = AppStoreServerAPI.TransactionHistoryQuery
        var query = Query()
        var revision: String?
        for item in items {
            let value = item.value ?? ""
            switch item.name {
            case "revision": revision = value
            case "startDate":
                guard let ms = Int64(value) else {
                    throw badRequest(.invalidStartDate, "Invalid request. The start date is not in milliseconds.")
                }
                query.startDate = Date(appStoreMilliseconds: ms)
            case "endDate":
                guard let ms = Int64(value) else {
                    throw badRequest(.invalidEndDate, "Invalid request. The end date is not in milliseconds.")
                }
                query.endDate = Date(appStoreMilliseconds: ms)
            case "productId": query.productIds.append(value)
            case "productType":
                guard let type = Query.ProductType(rawValue: value) else {
                    throw badRequest(.invalidProductType, "Invalid product type.")
                }
                query.productTypes.append(type)
            case "sort":
                guard let sort = Query.Sort(rawValue: value) else { throw badRequest(.invalidSort, "Invalid sort.") }
                query.sort = sort
            case "subscriptionGroupIdentifier": query.subscriptionGroupIdentifiers.append(value)
            case "inAppOwnershipType":
                guard ["PURCHASED", "FAMILY_SHARED"].contains(value) else {
                    throw badRequest(.invalidInAppOwnershipType, "Invalid in-app ownership type.")
                }
                query.inAppOwnershipType = value
            case "revoked":
                // Apple's Python library sends Python's spelling, "True" / "False".
                guard let revoked = ["true": true, "false": false][value.lowercased()] else {
                    throw badRequest(.invalidRevoked, "Invalid request. The revoked parameter is invalid.")
                }
                query.revoked = revoked
            default: continue
            }
        }
        if let start = query.startDate, let end = query.endDate, start > end {
            throw badRequest(.startDateAfterEndDate, "Invalid request. The end date precedes the start date.")
        }
        return (query, revision)
    }

    static let productTypes: [String: AppStoreServerAPI.TransactionHistoryQuery.ProductType] = [
        "Consumable": .consumable, "Non-Consumable": .nonConsumable,
        "Auto-Renewable Subscription": .autoRenewable, "Non-Renewing Subscription": .nonRenewable,
    ]

    static func matches(_ transaction: JWSTransaction, _ query: AppStoreServerAPI.TransactionHistoryQuery) -> Bool {
        let purchased = transaction.purchaseDate ?? 0
        if let start = query.startDate, purchased < start.appStoreMilliseconds { return false }
        if let end = query.endDate, purchased >= end.appStoreMilliseconds { return false }
        if !query.productIds.isEmpty, !query.productIds.contains(transaction.productId) { return false }
        if !query.productTypes.isEmpty {
            guard let type = transaction.type.flatMap({ productTypes[$0] }), query.productTypes.contains(type) else {
                return false
            }
        }
        if !query.subscriptionGroupIdentifiers.isEmpty {
            guard let group = transaction.subscriptionGroupIdentifier,
                query.subscriptionGroupIdentifiers.contains(group)
            else { return false }
        }
        if let ownership = query.inAppOwnershipType, transaction.inAppOwnershipType != ownership { return false }
        if let revoked = query.revoked, (transaction.revocationDate != nil) != revoked { return false }
        return true
    }
}
