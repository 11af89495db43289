import AppStoreSimulator
import AppStoreSimulatorHTTP
import AppStoreVerification
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import Testing

@Suite struct SimulatorTests {
    func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("purser-sim-\(UUID())")
    }

    @Test func keepsItsAuthorityAndPurchasesAcrossRestarts() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try SimulatorCertificateAuthority.loadOrCreate(
            in: directory.appendingPathComponent("ca"), now: Date())
        let again = try SimulatorCertificateAuthority.loadOrCreate(
            in: directory.appendingPathComponent("ca"), now: Date())
        #expect(first.rootDER == again.rootDER)
        #expect(first.leafKey.rawRepresentation == again.leafKey.rawRepresentation)

        let journal = directory.appendingPathComponent("transactions.jsonl")
        let store = try SimulatedAppStore(
            signer: JWSSigner(authority: first), configuration: .init(journalFile: journal))
        let bought = try await store.purchase(.init(productId: "gold60")).transaction
        _ = try await store.refund(transactionID: bought.transactionId)
        let restarted = try SimulatedAppStore(
            signer: JWSSigner(authority: again), configuration: .init(journalFile: journal))
        let next = try await restarted.purchase(.init(productId: "gold60")).transaction
        #expect(next.transactionId != bought.transactionId)
        let all = await restarted.transactions()
        #expect(all.map(\.transactionId) == [bought.transactionId, next.transactionId])
        #expect(all.first?.revocationDate != nil)
    }

    @Test func signsTransactionsAndNotificationsShapedLikeApples() async throws {
        let authority = try SimulatorCertificateAuthority.generate(validity: .standard(now: Date()))
        let store = try SimulatedAppStore(
            signer: JWSSigner(authority: authority),
            configuration: .init(defaultBundleID: "com.example.app", appAppleID: 1234))
        let token = UUID().uuidString
        let (transaction, jws) = try await store.purchase(
            .init(
                productId: "gold60", quantity: 2, appAccountToken: token,
                environment: .production))
        let verifier = SignedDataVerifier(
            configuration: .init(
                trustedRoots: [authority.root],
                claims: ClaimsPolicy(bundleID: "com.example.app", environments: [.production], appAppleID: 1234)))
        let decoded = try await verifier.verifyTransaction(jws)
        #expect(decoded == transaction)
        #expect(decoded.appAccountToken == token.lowercased())
        #expect(decoded.quantity == 2)
        #expect(decoded.type == "Consumable")
        #expect(decoded.inAppOwnershipType == "PURCHASED")
        #expect(decoded.transactionReason == "PURCHASE")
        #expect(decoded.storefront == "USA" && decoded.storefrontId == "143441")
        #expect(decoded.price == 1980 && decoded.currency == "USD")
        #expect(decoded.signedDate != nil && decoded.purchaseDate == decoded.originalPurchaseDate)

        let refund = try await store.refund(transactionID: transaction.transactionId, reason: 1)
        let notification = try await verifier.verifyNotification(refund.notification)
        #expect(notification.notification.notificationType == "REFUND")
        #expect(notification.notification.data?.appAppleId == 1234)
        #expect(notification.transaction?.revocationDate != nil)
        #expect(notification.transaction?.revocationReason == 1)
    }

    @Test func controlAPIMakesRefundsAndListsPurchases() async throws {
        let authority = try SimulatorCertificateAuthority.generate(validity: .standard(now: Date()))
        let store = try SimulatedAppStore(signer: JWSSigner(authority: authority))
        let router = Router()
        SimulatorRoutes(store: store).addRoutes(to: router)
        let app = Application(router: router)
        try await app.test(.router) { client in
            let purchase = try await client.execute(
                uri: "/simulator/v1/purchases", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"productId": "gold60", "appAccountToken": "\#(UUID().uuidString)"}"#))
            #expect(purchase.status == .created)
            let made = try JSONDecoder().decode(
                SimulatorRoutes.SignedTransactionResponse.self, from: Data(purchase.body.readableBytesView))

            let refund = try await client.execute(
                uri: "/simulator/v1/transactions/\(made.transactionId)/refund", method: .post)
            #expect(refund.status == .ok)
            let refunded = try JSONDecoder().decode(
                SimulatorRoutes.SignedTransactionResponse.self, from: Data(refund.body.readableBytesView))
            #expect(refunded.transaction.revocationDate != nil)
            #expect(refunded.signedNotification != nil)
            #expect(
                try await client.execute(uri: "/simulator/v1/transactions/\(made.transactionId)/refund", method: .post)
                    .status == .conflict)

            let list = try await client.execute(uri: "/simulator/v1/transactions", method: .get)
            let listed = try JSONDecoder().decode(
                SimulatorRoutes.TransactionList.self, from: Data(list.body.readableBytesView))
            #expect(listed.transactions.map(\.transactionId) == [made.transactionId])

            let bad = try await client.execute(
                uri: "/simulator/v1/purchases", method: .post, body: ByteBuffer(string: "{"))
            #expect(bad.status == .badRequest)
            #expect(String(buffer: bad.body).contains(#""code":"invalid_request""#))
            let missing = try await client.execute(uri: "/simulator/v1/transactions/404", method: .get)
            #expect(missing.status == .notFound)
            #expect(String(buffer: missing.body).contains(#""code":"not_found""#))
            #expect(missing.headers[.contentType] == "application/json")
            let root = try await client.execute(uri: "/simulator/v1/root-certificate", method: .get)
            #expect(Array(root.body.readableBytesView) == authority.rootDER)
        }
    }
}
