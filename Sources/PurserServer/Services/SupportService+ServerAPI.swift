import AppStoreVerification

extension SupportService.AppleLookup {
    /// Apple's answers through the App Store Server API: Look Up Order ID and Get Transaction Info.
    public init(_ api: AppStoreServerAPIClient) {
        self.init(
            transactionsOfOrder: { try await api.lookUpOrderID($0).signedTransactions },
            transaction: { try await api.getTransactionInfo(transactionID: $0).signedTransactionInfo })
    }
}
