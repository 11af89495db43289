import AppStoreSimulator
import AppStoreVerification
import Foundation
import HTTPTypes
import HummingbirdTesting
import PurserCore
import PurserServer
import PurserStorage
import Synchronization
import Testing

/// StoreKit 1 submissions with StoreKit 2's signed app transaction: the receipt carries no `appTransactionId`, so the
/// server takes it from what Apple signed for the app's download, and support finds the purchases by it. An app
/// transaction that does not verify, or is for another app or environment, is ignored and the purchase still credited.
@Suite struct AppTransactionSubmissionTests {
    static let account = SimulatedAppStore.appTransactionID(deviceId: "phone", bundleId: TestServer.bundleID)

    /// What the server made of one submission: each transaction's stored `appTransactionId`, and how many
    /// transactions support lists for the device's account.
    struct Outcome {
        var stored: [String?]
        var listed: Int
    }

    /// Two purchases on one device, submitted as one receipt with `appTransaction`; both must be credited.
    func submitReceipt(
        mode: ServerConfiguration.ReceiptVerification,
        appTransaction: @escaping @Sendable (TestServer) async throws -> String?
    ) async throws -> Outcome {
        let outcome = Mutex(Outcome(stored: [], listed: 0))
        let configure: (inout ServerConfiguration) -> Void = { $0.receipts.verification = mode }
        try await TestServer.run(configure: configure) { server, client in
            var ids: [String] = []
            for product in ["gold60", "gold120"] {
                let order = try await server.order(product, for: "dora", client: client)
                ids.append(try await server.pay(product, token: order.appAccountToken, device: "phone").id)
            }
            let request = SubmitTransactionRequest(
                receipt: try await server.receipt(device: "phone"), transactionId: ids[0],
                appTransaction: try await appTransaction(server))
            let answer = try await client.post("/v1/transactions", user: "dora", json: request)
            #expect(answer.status == .ok)
            #expect(try answer.decode(DecisionResponse.self).decision == "delivered")
            #expect(try await client.wallet("dora") == ["gold": 180])
            var stored: [String?] = []
            for id in ids { stored.append(try await server.store.transaction(id)?.transaction.appTransactionID) }
            struct Listing: Decodable { var transactions: [SupportService.TransactionView] }
            let found = try await client.admin(.get, "/admin/v1/app-transactions/\(Self.account)")
            let listed = try found.decode(Listing.self).transactions.count
            outcome.withLock { $0 = Outcome(stored: stored, listed: listed) }
        }
        return outcome.withLock { $0 }
    }

    @Test(arguments: ServerConfiguration.ReceiptVerification.allCases)
    func theAppTransactionGivesEveryTransactionOfTheReceiptItsAccount(
        _ mode: ServerConfiguration.ReceiptVerification
    ) async throws {
        let outcome = try await submitReceipt(mode: mode) { server in
            try await server.appStore.appTransaction(deviceId: "phone").signed
        }
        #expect(outcome.stored == [Self.account, Self.account])
        #expect(outcome.listed == 2)
    }

    /// Without it only Apple's own record can say: `verifyReceipt`'s answer does not, the Server API's (`local`) does.
    @Test(arguments: ServerConfiguration.ReceiptVerification.allCases)
    func withoutOneOnlyTheServerAPIKnowsTheAccount(_ mode: ServerConfiguration.ReceiptVerification) async throws {
        let outcome = try await submitReceipt(mode: mode) { _ in nil }
        let expected: String? = mode == .local ? Self.account : nil
        #expect(outcome.stored == [expected, expected])
    }

    enum Bad: String, CaseIterable, Sendable {
        case tampered, otherChain, otherBundle, otherEnvironment, notAJWS
    }

    @Test(arguments: Bad.allCases)
    func aBadAppTransactionIsIgnoredAndThePurchaseStillCredited(_ bad: Bad) async throws {
        let outcome = try await submitReceipt(mode: .verifyReceipt) { server in
            let other = "7999999999999999"
            switch bad {
            case .tampered:
                let parts = try await server.appStore.appTransaction(deviceId: "phone").signed.split(separator: ".")
                let payload = try #require(Base64URL.decode(parts[1].utf8))
                let forged = String(decoding: payload, as: UTF8.self).replacingOccurrences(
                    of: Self.account, with: other)
                return [parts[0], Substring(Base64URL.encode(Data(forged.utf8))), parts[2]].joined(separator: ".")
            case .otherChain:
                let stranger = try SimulatorCertificateAuthority.generate(validity: .standard(now: Date()))
                let payload = try await server.appStore.appTransaction(deviceId: "phone").appTransaction
                return try JWSSigner(authority: stranger).sign(payload)
            case .otherBundle:
                return try await server.appStore.appTransaction(deviceId: "phone", bundleID: "com.example.other").signed
            case .otherEnvironment:
                return try await server.appStore.appTransaction(deviceId: "phone", environment: .production).signed
            case .notAJWS:
                return "not-a-jws"
            }
        }
        #expect(outcome.stored == [nil, nil])
        #expect(outcome.listed == 0)
    }
}
