import AppStoreSimulator
import AppStoreSimulatorHTTP
import AppStoreVerification
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import Testing

/// Partial refunds in the simulator: each signed into the transaction and a REFUND notification at Apple's shape,
/// the percentage adding up to the share refunded so far.
@Suite struct PartialRefundSimulatorTests {
    @Test func partialRefundsAddUpInTheSignedTransactionAndNotification() async throws {
        let authority = try SimulatorCertificateAuthority.generate(validity: .standard(now: Date()))
        let store = try SimulatedAppStore(
            signer: JWSSigner(authority: authority), configuration: .init(defaultBundleID: "com.example.app"))
        let verifier = SignedDataVerifier(
            configuration: .init(
                trustedRoots: [authority.root],
                claims: ClaimsPolicy(bundleID: "com.example.app", environments: [.sandbox])))
        let router = Router()
        SimulatorRoutes(store: store).addRoutes(to: router)
        try await Application(router: router).test(.router) { client in
            let made = try await store.purchase(.init(productId: "gold60")).transaction
            func refund(_ body: String) async throws -> TestResponse {
                try await client.execute(
                    uri: "/simulator/v1/transactions/\(made.transactionId)/refund", method: .post,
                    headers: [.contentType: "application/json"], body: ByteBuffer(string: body))
            }
            let half = try await refund(#"{"revocationType": "REFUND_PRORATED", "revocationPercentage": 50000}"#)
            #expect(half.status == .ok)
            let more = try await refund(#"{"revocationType": "REFUND_PRORATED", "revocationPercentage": 30000}"#)
            let response = try JSONDecoder().decode(
                SimulatorRoutes.SignedTransactionResponse.self, from: Data(more.body.readableBytesView))
            let signed = try await verifier.verifyTransaction(response.signedTransaction)
            #expect(signed.revocationType == .refundProrated && signed.revocationPercentage == 80_000)
            let notification = try await verifier.verifyNotification(try #require(response.signedNotification))
            #expect(notification.notification.notificationType == "REFUND")
            #expect(notification.transaction?.revocationPercentage == 80_000)
            #expect(try await refund(#"{"revocationPercentage": 0}"#).status == .badRequest)

            let rest = try await refund("{}")
            let whole = try JSONDecoder().decode(
                SimulatorRoutes.SignedTransactionResponse.self, from: Data(rest.body.readableBytesView))
            #expect(whole.transaction.revocationType == .refundFull)
            #expect(whole.transaction.revocationPercentage == RefundRules.whole)
            #expect(try await refund("{}").status == .conflict)

            try await store.reverseRefund(transactionID: made.transactionId)
            let reversed = try #require(await store.purchase(transactionID: made.transactionId)).transaction
            #expect(reversed.revocationDate == nil && reversed.revocationPercentage == nil)
            #expect(reversed.revocationType == nil)
            let family = try await store.refund(transactionID: made.transactionId, type: .familyRevoke)
            #expect(family.transaction.revocationPercentage == RefundRules.whole)
        }
    }
}
