import AppStoreVerification

extension SimulatedServerAPI {
    /// Finish Transaction (`POST /inApps/v1/transactions/{transactionId}/finish`): the purchase is finished as if
    /// the app had finished it; finishing again changes nothing. An unknown transaction is 404 `4040010`.
    public func finishTransaction(transactionID: String, authorization: String?) async throws(AppStoreServerAPIError) {
        let key = try await authorize(authorization)
        try Self.requireNumeric(transactionID, else: .invalidTransactionId)
        guard let purchase = await store.purchase(transactionID: transactionID),
            purchase.transaction.bundleId == key.bundleId
        else { throw Self.transactionNotFound() }
        do {
            try await store.finishFromServer(transactionID: transactionID)
        } catch {
            throw AppStoreServerAPIError(.generalInternal, "An unknown error occurred.", httpStatus: 500)
        }
    }
}
