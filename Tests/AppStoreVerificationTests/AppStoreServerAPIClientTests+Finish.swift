import AppStoreVerification
import Foundation
import Testing

// Finish Transaction (App Store Server API 1.20): `POST /inApps/v1/transactions/{transactionId}/finish`.
extension AppStoreServerAPIClientTests {
    @Test func finishesATransactionAtApplesPathWithNoBody() async throws {
        let transport = ScriptedTransport([.answer(503), .answer(200)])
        try await client(transport).finishTransaction(transactionID: "2000000000000123")
        let requests = transport.requests
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { $0.method == "POST" && ($0.body ?? Data()).isEmpty })
        #expect(
            requests.map(\.url.absoluteString).allSatisfy {
                $0 == "https://api.storekit.itunes.apple.com/inApps/v1/transactions/2000000000000123/finish"
            })
        #expect(requests.first?.headers["Authorization"]?.hasPrefix("Bearer ") == true)
        #expect(sleeps.delays.count == 1)
    }

    @Test func aTransactionAppleDoesNotKnowIsNotFinished() async throws {
        let transport = ScriptedTransport([.answer(404, json: Self.notFound)])
        let error = await #expect(throws: AppStoreServerAPIError.self) {
            try await client(transport).finishTransaction(transactionID: "404")
        }
        #expect(error?.code == .transactionIdNotFound && error?.httpStatus == 404)
        #expect(transport.requests.count == 1)
    }
}
