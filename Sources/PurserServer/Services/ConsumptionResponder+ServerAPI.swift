import AppStoreVerification
import PurserCore
import PurserStorage

extension ConsumptionResponder {
    /// Answers through the App Store Server API's Send Consumption Information: version 2 with the report's fields,
    /// or version 1, where `DELIVERED` is delivery status 0 ("delivered and working properly"), anything else 5 ("not
    /// delivered for other reasons"), the consumed share is consumption status 1–3 (none, partly, fully) and the
    /// refund preference 1 (grant), 2 (decline) or 0 (undeclared).
    public static func viaServerAPI(
        _ api: AppStoreServerAPIClient, store: any LedgerStore, policy: Policy
    ) -> ConsumptionResponder {
        ConsumptionResponder(store: store, policy: policy) { [version = policy.version] report in
            switch version {
            case .v2:
                try await api.sendConsumptionInformation(
                    transactionID: report.transactionID,
                    AppStoreServerAPI.ConsumptionRequestV2(
                        customerConsented: true, deliveryStatus: report.deliveryStatus,
                        sampleContentProvided: report.sampleContentProvided,
                        refundPreference: report.refundPreference,
                        consumptionPercentage: report.consumptionPercentage))
            case .v1:
                try await api.sendConsumptionInformation(transactionID: report.transactionID, v1(report))
            }
        }
    }

    /// The report as version 1's integer-coded body.
    static func v1(_ report: Report) -> AppStoreServerAPI.ConsumptionRequest {
        let delivered = report.deliveryStatus == .delivered
        let consumption =
            !delivered ? 0 : report.consumptionPercentage == 0 ? 1 : report.consumptionPercentage == 100_000 ? 3 : 2
        let preference: Int =
            switch report.refundPreference {
            case .grantFull?, .grantProrated?: 1
            case .decline?: 2
            default: 0
            }
        return AppStoreServerAPI.ConsumptionRequest(
            customerConsented: true, consumptionStatus: consumption, platform: 1,
            sampleContentProvided: report.sampleContentProvided, deliveryStatus: delivered ? 0 : 5,
            appAccountToken: report.orderID?.uuid, accountTenure: 0, playTime: 0, lifetimeDollarsRefunded: 0,
            lifetimeDollarsPurchased: 0, userStatus: 0, refundPreference: preference)
    }
}
