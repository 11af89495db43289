import AppStoreVerification
import PurserStorage

extension ConsumptionResponder {
    /// Answers through the App Store Server API's Send Consumption Information. Apple's delivery status 0 means
    /// "delivered and working properly" (DELIVERED); 5 means "not delivered for other reasons".
    public static func viaServerAPI(
        _ api: AppStoreServerAPIClient, store: any LedgerStore,
        customerConsented: Bool
    ) -> ConsumptionResponder {
        ConsumptionResponder(store: store) { report in
            try await api.sendConsumptionInformation(
                transactionID: report.transactionID,
                .init(
                    customerConsented: customerConsented, consumptionStatus: 0, platform: 1,
                    sampleContentProvided: false,
                    deliveryStatus: report.deliveryStatus == "DELIVERED" ? 0 : 5, appAccountToken: nil,
                    accountTenure: 0,
                    playTime: 0, lifetimeDollarsRefunded: 0, lifetimeDollarsPurchased: 0, userStatus: 0))
        }
    }
}
