import AppStoreSimulator
import AppStoreVerification
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import PurserStorage
import Testing

@testable import PurserServer

/// What a studio of two apps says about what does not belong to one of its apps, over live HTTP: a transaction of
/// another bundle, rejected `wrong_bundle` where it was submitted, opens in the admin API and the console with its
/// rejection; a notification Apple signed for a bundle no app serves is acknowledged and ignored, in no ledger.
@Suite struct StudioLookupTests {
    static let home = ConsoleStudioTests.home
    static let racers = ConsoleStudioTests.racers

    @Test func aTransactionRejectedWrongBundleOpensWithItsRejection() async throws {
        try await ConsoleStudioTests.run { studio, client in
            // Racers' purchase submitted as the first app's: rejected, and recorded in the first app's ledger.
            let (purchase, jws) = try await studio.appStore.purchase(
                .init(productId: "gold60", bundleId: Self.racers, environment: .sandbox))
            let id = purchase.transactionId
            let submitted = try await client.execute(
                uri: "/v1/transactions", method: .post,
                headers: ConsoleStudioTests.headers(app: Self.home, user: "mei"),
                body: ByteBuffer(bytes: try JSONEncoder().encode(SubmitTransactionRequest(signedTransaction: jws))))
            let decision = try submitted.decode(DecisionResponse.self)
            #expect(decision.decision == "rejected" && decision.reason?.code == "wrong_bundle")
            #expect(try await studio.stores[0].transaction(id)?.state == .rejected)

            var headers: HTTPFields = [.authorization: "Bearer \(TestServer.adminToken)"]
            headers[AppDispatchMiddleware.header] = Self.home
            let opened = try await client.execute(uri: "/admin/v1/transactions/\(id)", method: .get, headers: headers)
            #expect(opened.status == .ok, "\(String(buffer: opened.body))")
            let view = try opened.decode(SupportService.TransactionView.self)
            #expect(view.ledger == "rejected" && view.rejection?.code == "wrong_bundle", "\(view)")
            #expect(view.rejection?.message.contains(Self.racers) == true, "\(view)")
            #expect(view.apple == "not found" && view.appleError != nil, "\(view)")

            let ana = try await ConsoleStudioTests.signIn(client, as: "ana")
            let searched = try await ConsoleTests.get(client, "/console/search?q=\(id)", cookie: ana)
            #expect(searched.headers[.location] == "/console/transactions/\(id)")
            let page = try await ConsoleTests.get(client, "/console/transactions/\(id)", cookie: ana)
            let html = ConsoleStudioTests.html(page)
            #expect(page.status == .ok, "\(html)")
            #expect(html.contains("<dd id=\"ledger\">rejected</dd>") && html.contains("(wrong_bundle)"), "\(html)")
            #expect(html.contains("Apple knows no transaction of this app with this id"), "\(html)")
            #expect(!html.contains("Nothing found"), "\(html)")
        }
    }

    @Test func aNotificationForABundleNoAppServesIsAcknowledgedAndRecordedNowhere() async throws {
        try await ConsoleStudioTests.run { studio, client in
            _ = try await studio.appStore.purchase(
                .init(productId: "gold60", bundleId: "com.example.stranger", environment: .sandbox))
            let signed = try #require(try await studio.appStore.notificationHistory().last?.signedPayload)
            let body = try JSONEncoder().encode(["signedPayload": signed])
            let answer = try await client.execute(
                uri: "/v1/appstore/notifications", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(bytes: body))
            #expect(answer.status == .ok, "\(String(buffer: answer.body))")
            let outcome = try answer.decode(NotificationService.Outcome.self)
            #expect(outcome.result == "ignored: unknown_bundle com.example.stranger", "\(outcome)")
            for store in studio.stores {
                let rows = try await store.integrity().rows
                #expect(rows["notifications"] == 0 && rows["apple_transactions"] == 0, "\(rows)")
            }
        }
    }
}
