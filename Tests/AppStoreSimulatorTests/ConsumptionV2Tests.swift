import AppStoreSimulator
import AppStoreVerification
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Send Consumption Information version 2 at Apple's path, driven by the real client through the router.
@Suite struct ConsumptionV2Tests {
    @Test func storesVersion2ForAnyProductTypeAndRefusesWhatAppleRefuses() async throws {
        let fixture = try ServerAPIFixture()
        let bought = try await fixture.buy()
        let permanent = try await fixture.buy("sword", type: "Non-Consumable")
        let request = AppStoreServerAPI.ConsumptionRequestV2(
            deliveryStatus: .delivered, sampleContentProvided: true, refundPreference: .grantProrated,
            consumptionPercentage: 25_000)
        try await fixture.test { client in
            let api = try fixture.client(client)
            try await api.sendConsumptionInformation(transactionID: bought.transactionId, request)
            #expect(await fixture.api.consumptionInformationV2(transactionID: bought.transactionId) == request)
            #expect(await fixture.api.consumptionInformation(transactionID: bought.transactionId) == nil)
            let stored = try await client.execute(
                uri: "/simulator/v1/server-api/consumption/v2/\(bought.transactionId)", method: .get)
            #expect(
                try JSONDecoder().decode(
                    AppStoreServerAPI.ConsumptionRequestV2.self, from: Data(stored.body.readableBytesView)) == request)
            try await api.sendConsumptionInformation(transactionID: permanent.transactionId, request)
            #expect(await fixture.api.consumptionInformationV2(transactionID: permanent.transactionId) == request)

            var unconsented = request
            unconsented.customerConsented = false
            await #expect(throws: AppStoreServerAPIError(.invalidCustomerConsented, "")) {
                try await api.sendConsumptionInformation(transactionID: bought.transactionId, unconsented)
            }
            var unknownStatus = request
            unknownStatus.deliveryStatus = AppStoreServerAPI.DeliveryStatus(rawValue: "UNDELIVERED_SOMEHOW")
            await #expect(throws: AppStoreServerAPIError(.invalidDeliveryStatus, "")) {
                try await api.sendConsumptionInformation(transactionID: bought.transactionId, unknownStatus)
            }
            var undelivered = request
            undelivered.deliveryStatus = .undeliveredOther
            let refused = await #expect(throws: AppStoreServerAPIError.self) {
                try await api.sendConsumptionInformation(transactionID: bought.transactionId, undelivered)
            }
            #expect(refused?.httpStatus == 400)
            #expect(refused?.message.contains("undelivered_consumption_percentage_non_zero") == true)
            #expect(await fixture.api.consumptionInformationV2(transactionID: bought.transactionId) == request)

            let missing = try await client.execute(
                uri: "/inApps/v2/transactions/consumption/\(bought.transactionId)", method: .put,
                headers: [.authorization: "Bearer \(try await api.token.current())"],
                body: ByteBuffer(string: #"{"customerConsented": true, "sampleContentProvided": false}"#))
            #expect(missing.status == .badRequest)
            let error = try JSONDecoder().decode(
                AppStoreServerAPI.ErrorResponse.self, from: Data(missing.body.readableBytesView))
            #expect(error.errorCode == 4_000_036, "InvalidDeliveryStatusError")
        }
    }
}
