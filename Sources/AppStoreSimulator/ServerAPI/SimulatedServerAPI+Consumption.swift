import AppStoreVerification
import Foundation

extension SimulatedServerAPI {
    /// Send Consumption Information (version 1): checks the body as Apple does and keeps it, readable with
    /// `consumptionInformation(transactionID:)`. Only consumables are accepted.
    public func receiveConsumptionInformation(transactionID: String, body: Data, authorization: String?)
        async
        throws(AppStoreServerAPIError)
    {
        let key = try await authorize(authorization)
        try Self.requireNumeric(transactionID, else: .invalidTransactionId)
        guard let purchase = await store.purchase(transactionID: transactionID),
            purchase.transaction.bundleId == key.bundleId
        else { throw Self.transactionNotFound() }
        let request = try Self.consumptionRequest(from: body)
        guard purchase.transaction.type == "Consumable" else {
            throw Self.badRequest(
                .invalidTransactionNotConsumable,
                "Invalid request. The transaction is not a consumable in-app purchase.")
        }
        consumption[transactionID] = request
    }

    /// Every field, optional, to name the first one missing as Apple does.
    private struct Presence: Decodable {
        var customerConsented: Bool?
        var consumptionStatus: Int?
        var platform: Int?
        var sampleContentProvided: Bool?
        var deliveryStatus: Int?
        var appAccountToken: String?
        var accountTenure: Int?
        var playTime: Int?
        var lifetimeDollarsRefunded: Int?
        var lifetimeDollarsPurchased: Int?
        var userStatus: Int?
    }

    static func consumptionRequest(from body: Data) throws(AppStoreServerAPIError)
        -> AppStoreServerAPI.ConsumptionRequest
    {
        guard let present = try? JSONDecoder().decode(Presence.self, from: body) else {
            throw badRequest(.generalBadRequest, "Invalid request. The body is not a consumption request.")
        }
        let missing: [(Bool, AppStoreServerAPIError.Code)] = [
            (present.customerConsented == nil, .invalidCustomerConsented),
            (present.consumptionStatus == nil, .invalidConsumptionStatus),
            (present.platform == nil, .invalidPlatform),
            (present.sampleContentProvided == nil, .invalidSampleContentProvided),
            (present.deliveryStatus == nil, .invalidDeliveryStatus),
            (present.appAccountToken == nil, .invalidAppAccountToken),
            (present.accountTenure == nil, .invalidAccountTenure),
            (present.playTime == nil, .invalidPlayTime),
            (present.lifetimeDollarsRefunded == nil, .invalidLifetimeDollarsRefunded),
            (present.lifetimeDollarsPurchased == nil, .invalidLifetimeDollarsPurchased),
            (present.userStatus == nil, .invalidUserStatus),
        ]
        if let (_, code) = missing.first(where: { $0.0 }) {
            throw badRequest(code, "Invalid request. A required field is missing (\(code)).")
        }
        guard let request = try? JSONDecoder().decode(AppStoreServerAPI.ConsumptionRequest.self, from: body) else {
            throw badRequest(.generalBadRequest, "Invalid request. The body is not a consumption request.")
        }
        if let code = request.invalidField {
            throw badRequest(code, "Invalid request. A field has a value Apple does not accept (\(code)).")
        }
        return request
    }
}
