import AppStoreVerification
import Foundation

extension SimulatedServerAPI {
    /// Send Consumption Information (version 2): checks the body as Apple documents it (any product type; not a
    /// Family Sharing transaction; the consumption percentage rules of `ConsumptionRequestV2.invalidField`) and keeps
    /// it, readable with `consumptionInformationV2(transactionID:)`.
    public func receiveConsumptionInformationV2(transactionID: String, body: Data, authorization: String?)
        async
        throws(AppStoreServerAPIError)
    {
        let key = try await authorize(authorization)
        try Self.requireNumeric(transactionID, else: .invalidTransactionId)
        guard let purchase = await store.purchase(transactionID: transactionID),
            purchase.transaction.bundleId == key.bundleId
        else { throw Self.transactionNotFound() }
        let request = try Self.consumptionRequestV2(from: body)
        guard purchase.transaction.inAppOwnershipType != "FAMILY_SHARED" else {
            throw Self.badRequest(
                .familyTransactionNotSupported, "Invalid request. Family Sharing transactions aren't supported.")
        }
        let autoRenewable = purchase.transaction.type == "Auto-Renewable Subscription"
        if let code = request.invalidField(autoRenewable: autoRenewable) {
            throw Self.badRequest(code, "Invalid request. A field has a value Apple does not accept (\(code)).")
        }
        consumptionV2[transactionID] = request
    }

    /// The last version 2 consumption information sent for a transaction.
    public func consumptionInformationV2(transactionID: String) -> AppStoreServerAPI.ConsumptionRequestV2? {
        consumptionV2[transactionID]
    }

    /// The required fields, optional, to name the first one missing as Apple does.
    private struct PresenceV2: Decodable {
        var customerConsented: Bool?
        var deliveryStatus: String?
        var sampleContentProvided: Bool?
    }

    static func consumptionRequestV2(from body: Data) throws(AppStoreServerAPIError)
        -> AppStoreServerAPI.ConsumptionRequestV2
    {
        try decodeRequiring(AppStoreServerAPI.ConsumptionRequestV2.self, from: body, PresenceV2.self) {
            [
                ($0.customerConsented == nil, .invalidCustomerConsented),
                ($0.deliveryStatus == nil, .invalidDeliveryStatus),
                ($0.sampleContentProvided == nil, .invalidSampleContentProvided),
            ]
        }
    }
}
