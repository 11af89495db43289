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
        let request = try decodeRequiring(AppStoreServerAPI.ConsumptionRequest.self, from: body, Presence.self) {
            [
                ($0.customerConsented == nil, .invalidCustomerConsented),
                ($0.consumptionStatus == nil, .invalidConsumptionStatus),
                ($0.platform == nil, .invalidPlatform),
                ($0.sampleContentProvided == nil, .invalidSampleContentProvided),
                ($0.deliveryStatus == nil, .invalidDeliveryStatus),
                ($0.appAccountToken == nil, .invalidAppAccountToken),
                ($0.accountTenure == nil, .invalidAccountTenure),
                ($0.playTime == nil, .invalidPlayTime),
                ($0.lifetimeDollarsRefunded == nil, .invalidLifetimeDollarsRefunded),
                ($0.lifetimeDollarsPurchased == nil, .invalidLifetimeDollarsPurchased),
                ($0.userStatus == nil, .invalidUserStatus),
            ]
        }
        if let code = request.invalidField {
            throw badRequest(code, "Invalid request. A field has a value Apple does not accept (\(code)).")
        }
        return request
    }

    /// Decodes a consumption request as Apple checks one: a body that is not the request's shape is a general bad
    /// request; otherwise the first required field that is missing (`missing`, over `presence`, every field optional)
    /// is named by its own error code.
    static func decodeRequiring<Request: Decodable, Presence: Decodable>(
        _ type: Request.Type, from body: Data, _ presence: Presence.Type,
        missing: (Presence) -> [(Bool, AppStoreServerAPIError.Code)]
    ) throws(AppStoreServerAPIError) -> Request {
        guard let present = try? JSONDecoder().decode(Presence.self, from: body) else {
            throw badRequest(.generalBadRequest, "Invalid request. The body is not a consumption request.")
        }
        if let (_, code) = missing(present).first(where: { $0.0 }) {
            throw badRequest(code, "Invalid request. A required field is missing (\(code)).")
        }
        guard let request = try? JSONDecoder().decode(Request.self, from: body) else {
            throw badRequest(.generalBadRequest, "Invalid request. The body is not a consumption request.")
        }
        return request
    }
}
