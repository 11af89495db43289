import Foundation

/// The endpoints, at Apple's paths. Each throws `AppStoreServerAPIError` (or `CancellationError`).
extension AppStoreServerAPIClient {
    /// Get Transaction Info: `GET /inApps/v1/transactions/{transactionId}`.
    public func getTransactionInfo(transactionID: String) async throws -> AppStoreServerAPI.TransactionInfoResponse {
        let response = try await perform("GET", path: ["inApps", "v1", "transactions", transactionID])
        return try decode(AppStoreServerAPI.TransactionInfoResponse.self, from: response)
    }

    /// Get Transaction History, version 2: `GET /inApps/v2/history/{transactionId}?revision=…&…`. One page of up to
    /// 20 transactions of the customer who made `transactionID` (any of their transaction ids), finished
    /// consumables included. Pass the previous page's `revision` for the next one, with the same `query`.
    public func getTransactionHistory(
        transactionID: String, revision: String? = nil,
        query: AppStoreServerAPI.TransactionHistoryQuery = .init()
    ) async throws
        -> AppStoreServerAPI.HistoryResponse
    {
        let response = try await perform(
            "GET", path: ["inApps", "v2", "history", transactionID],
            query: query.queryItems(revision: revision))
        return try decode(AppStoreServerAPI.HistoryResponse.self, from: response)
    }

    /// Every page of Get Transaction History v2 from `revision` (the start when `nil`) until `hasMore` is false.
    /// The answer's `revision` is where to start next time to see only what is new.
    /// - Parameter maximumPages: a guard against an answer that never ends (`unexpected_response` past it).
    public func getAllTransactionHistory(
        transactionID: String, startingAt revision: String? = nil,
        query: AppStoreServerAPI.TransactionHistoryQuery = .init(),
        maximumPages: Int = 1000
    ) async throws
        -> AppStoreServerAPI.TransactionHistory
    {
        var history = AppStoreServerAPI.TransactionHistory(revision: revision)
        while true {
            let page = try await getTransactionHistory(
                transactionID: transactionID, revision: history.revision,
                query: query)
            history.signedTransactions += page.signedTransactions
            history.pages += 1
            history.bundleId = page.bundleId
            history.environment = page.environment
            let previous = history.revision
            history.revision = page.revision
            guard page.hasMore else { return history }
            guard page.revision != previous, history.pages < maximumPages else {
                throw AppStoreServerAPIError(
                    .unexpectedResponse, "the transaction history does not advance (page \(history.pages))")
            }
        }
    }

    /// Look Up Order ID: `GET /inApps/v1/lookup/{orderId}`, the order id from the customer's e-mail receipt.
    /// An unknown order id is not an error: the answer's `status` is 1 (`isValid` false).
    public func lookUpOrderID(_ orderID: String) async throws -> AppStoreServerAPI.OrderLookupResponse {
        let response = try await perform("GET", path: ["inApps", "v1", "lookup", orderID])
        return try decode(AppStoreServerAPI.OrderLookupResponse.self, from: response)
    }

    /// Get Refund History, version 2: `GET /inApps/v2/refund/lookup/{transactionId}?revision=…`, one page of up to
    /// 20 refunded transactions of the customer.
    public func getRefundHistory(transactionID: String, revision: String? = nil) async throws
        -> AppStoreServerAPI.RefundHistoryResponse
    {
        let query = revision.map { [URLQueryItem(name: "revision", value: $0)] } ?? []
        let response = try await perform(
            "GET", path: ["inApps", "v2", "refund", "lookup", transactionID], query: query)
        return try decode(AppStoreServerAPI.RefundHistoryResponse.self, from: response)
    }

    /// Send Consumption Information V1: `PUT /inApps/v1/transactions/consumption/{transactionId}`, the older answer
    /// to a `CONSUMPTION_REQUEST` notification (consumables and auto-renewable subscriptions). Apple answers 202.
    public func sendConsumptionInformation(transactionID: String, _ request: AppStoreServerAPI.ConsumptionRequest)
        async throws
    {
        _ = try await perform(
            "PUT", path: ["inApps", "v1", "transactions", "consumption", transactionID],
            body: try encode(request))
    }

    /// Send Consumption Information (version 2, API 1.19): `PUT /inApps/v2/transactions/consumption/{transactionId}`,
    /// the current answer to a `CONSUMPTION_REQUEST`, for any product type. Apple answers 202 with no body.
    public func sendConsumptionInformation(transactionID: String, _ request: AppStoreServerAPI.ConsumptionRequestV2)
        async throws
    {
        _ = try await perform(
            "PUT", path: ["inApps", "v2", "transactions", "consumption", transactionID],
            body: try encode(request))
    }

    /// Get Notification History: `POST /inApps/v1/notifications/history?paginationToken=…`, one page.
    public func getNotificationHistory(
        _ request: AppStoreServerAPI.NotificationHistoryRequest,
        paginationToken: String? = nil
    ) async throws
        -> AppStoreServerAPI.NotificationHistoryResponse
    {
        let query = paginationToken.map { [URLQueryItem(name: "paginationToken", value: $0)] } ?? []
        let response = try await perform(
            "POST", path: ["inApps", "v1", "notifications", "history"], query: query,
            body: try encode(request))
        return try decode(AppStoreServerAPI.NotificationHistoryResponse.self, from: response)
    }

    /// Request a Test Notification: `POST /inApps/v1/notifications/test`; Apple then sends a `TEST` notification.
    public func requestTestNotification() async throws -> AppStoreServerAPI.SendTestNotificationResponse {
        let response = try await perform("POST", path: ["inApps", "v1", "notifications", "test"])
        return try decode(AppStoreServerAPI.SendTestNotificationResponse.self, from: response)
    }

    /// Set App Account Token: `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken` with
    /// `{"appAccountToken": UUID}`; Apple puts the token on the purchase's transactions from then on.
    public func setAppAccountToken(_ token: UUID, originalTransactionID: String) async throws {
        _ = try await perform(
            "PUT", path: ["inApps", "v1", "transactions", originalTransactionID, "appAccountToken"],
            body: try encode(AppStoreServerAPI.UpdateAppAccountTokenRequest(appAccountToken: token)))
    }

    /// Finish Transaction (API 1.20): `POST /inApps/v1/transactions/{transactionId}/finish`, no body. Tells Apple a
    /// server delivered the purchase, as `Transaction.finish()` does from the app: StoreKit stops redelivering it and
    /// a finished consumable leaves the app receipt. Apple answers 200 with no body; finishing again is harmless.
    public func finishTransaction(transactionID: String) async throws {
        _ = try await perform("POST", path: ["inApps", "v1", "transactions", transactionID, "finish"])
    }

    private func encode(_ value: some Encodable) throws(AppStoreServerAPIError) -> Data {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return try encoder.encode(value)
        } catch {
            throw AppStoreServerAPIError(.invalidConfiguration, "cannot encode the request body", cause: error)
        }
    }
}
