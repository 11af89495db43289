import AppStoreSimulator
import AppStoreVerification
import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import PurserCore
import PurserServer
import PurserStorage
import Testing

/// StoreKit 1 without `verifyReceipt`: the receipt's signature checked locally, each transaction confirmed with Get
/// Transaction Info and settled as a StoreKit 2 transaction, over live HTTP with the simulator.
@Suite struct LocalReceiptTests {
    func submit(
        _ client: some TestClientProtocol, receipt: [UInt8], transaction: String, order: OrderID, user: String
    ) async throws -> TestResponse {
        try await client.post(
            "/v1/transactions", user: user,
            json: SubmitTransactionRequest(
                receipt: Data(receipt).base64EncodedString(), transactionId: transaction, orderId: order.description))
    }

    @Test func aStoreKit1PurchaseSettlesWithVerifyReceiptSwitchedOff() async throws {
        try await TestServer.run { server, client in
            #expect(server.receiptVerification == .local, "the default with the simulator's Server API credentials")
            let order = try await server.order("gold60", for: "alice", client: client)
            let (id, _) = try await server.pay("gold60", token: nil, device: "phone")
            // verifyReceipt would answer "try later": the decision cannot have come from it.
            await server.appStore.injectVerifyReceiptFaults([.status(21005)])
            let receipt = try await server.appStore.receipt(deviceId: "phone").der
            let decision = try await submit(
                client, receipt: receipt, transaction: id, order: order.orderId, user: "alice"
            )
            .decode(DecisionResponse.self)
            #expect(decision.decision == "delivered")
            #expect(decision.finish)
            #expect(try await client.wallet("alice") == ["gold": 60])
            // Settled from Apple's signed record (which carries the type), as a StoreKit 2 transaction is.
            #expect(try await server.store.transaction(id)?.transaction.type == "Consumable")
        }
    }

    @Test func aReceiptSignedByAnotherChainOrChangedByOneByteIsRefusedAndChangesNothing() async throws {
        let foreign = try ReceiptCertificateAuthority.generate(validity: .standard(now: Date()), name: "Not Apple")
        try await TestServer.run { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let (id, _) = try await server.pay("gold60", token: nil, device: "phone")
            let genuine = try await server.appStore.receipt(deviceId: "phone").der
            let resigned = try AppReceiptIssuer(authority: foreign).issue(
                try AppReceiptParser.parse(der: genuine), signingTime: Date())
            var changed = genuine
            let product = Array("gold60".utf8)
            let at = try #require(
                (0...(genuine.count - product.count)).first {
                    genuine[$0..<($0 + product.count)].elementsEqual(product)
                })
            changed[at + 5] = UInt8(ascii: "1")  // gold61, still a well-formed receipt
            for (receipt, code) in [(resigned, "untrusted_chain"), (changed, "bad_signature")] {
                let response = try await submit(
                    client, receipt: receipt, transaction: id, order: order.orderId, user: "alice")
                #expect(response.status == .unprocessableContent)
                #expect(response.errorCode == code)
            }
            let statistics = try await server.store.statistics()
            #expect(statistics.transactions == 0 && statistics.grants == 0)
            let genuineAnswer = try await submit(
                client, receipt: genuine, transaction: id, order: order.orderId, user: "alice")
            #expect(try genuineAnswer.decode(DecisionResponse.self).decision == "delivered")
        }
    }

    @Test func serverAPITroubleMeansPendingAndALaterRetrySucceeds() async throws {
        try await TestServer.run { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let (id, _) = try await server.pay("gold60", token: nil, device: "phone")
            let receipt = try await server.appStore.receipt(deviceId: "phone").der
            // More failures than the client's three attempts.
            await server.serverAPI.injectFaults(Array(repeating: ServerAPIFault(status: 503), count: 3))
            let pending = try await submit(
                client, receipt: receipt, transaction: id, order: order.orderId, user: "alice")
            #expect(pending.status == .ok)
            let decision = try pending.decode(DecisionResponse.self)
            #expect(decision.decision == "pending")
            #expect(decision.reason?.code == "apple_unavailable")
            #expect(!decision.finish)
            #expect(try await server.store.statistics().transactions == 0)

            let retry = try await submit(client, receipt: receipt, transaction: id, order: order.orderId, user: "alice")
            #expect(try retry.decode(DecisionResponse.self).decision == "delivered")
        }
    }

    @Test func localThenVerifyReceiptChecksTheSignatureFirstThenAsksVerifyReceipt() async throws {
        let foreign = try ReceiptCertificateAuthority.generate(validity: .standard(now: Date()), name: "Not Apple")
        let configure: (inout ServerConfiguration) -> Void = { $0.receipts.verification = .localThenVerifyReceipt }
        try await TestServer.run(configure: configure) { server, client in
            #expect(server.receiptVerification == .localThenVerifyReceipt)
            let order = try await server.order("gold60", for: "alice", client: client)
            let (id, _) = try await server.pay("gold60", token: nil, device: "phone")
            let genuine = try await server.appStore.receipt(deviceId: "phone").der
            let forged = try AppReceiptIssuer(authority: foreign).issue(
                try AppReceiptParser.parse(der: genuine), signingTime: Date())
            let refused = try await submit(
                client, receipt: forged, transaction: id, order: order.orderId, user: "alice")
            #expect(refused.errorCode == "untrusted_chain")

            await server.appStore.injectVerifyReceiptFaults([.status(21005)])
            let pending = try await submit(
                client, receipt: genuine, transaction: id, order: order.orderId, user: "alice")
            #expect(try pending.decode(DecisionResponse.self).decision == "pending", "verifyReceipt was asked")
            let delivered = try await submit(
                client, receipt: genuine, transaction: id, order: order.orderId, user: "alice")
            #expect(try delivered.decode(DecisionResponse.self).decision == "delivered")
        }
    }

    @Test func theModeDefaultsByCredentialsAndLocalNeedsThem() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-local-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await SQLiteLedgerStore.open(
            path: directory.appendingPathComponent("purser.sqlite").path, logger: Logger(label: "test"))
        func assemble(_ configure: (inout ServerConfiguration) -> Void) throws -> PurserAssembly {
            var configuration = ServerConfiguration()
            configuration.auth.mode = .development
            configure(&configuration)
            return try PurserAssembly(
                configuration: configuration, catalog: TestServer.catalog, store: store,
                appStore: try .apple(configuration), logger: Logger(label: "test"))
        }
        #expect(try assemble { _ in }.receiptVerification == .verifyReceipt, "no Server API credentials")
        #expect(throws: ConfigurationError.self) { try assemble { $0.receipts.verification = .local } }
        #expect(
            try assemble { $0.receipts.verification = .localThenVerifyReceipt }.receiptVerification
                == .localThenVerifyReceipt)

        let keyFile = directory.appendingPathComponent("AuthKey.p8")
        try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: keyFile)
        let credentials: (inout ServerConfiguration) -> Void = {
            $0.appStoreServerAPI.issuerId = "issuer"
            $0.appStoreServerAPI.keyId = "KEY"
            $0.appStoreServerAPI.privateKeyFile = keyFile.path
        }
        let current = try assemble(credentials)
        #expect(current.receiptVerification == .local)
        #expect(current.appStore.serverAPI?.configuration.baseURL.host == "api.storekit.apple.com")
        #expect(current.appStore.sandboxServerAPI?.configuration.baseURL.host == "api.storekit-sandbox.apple.com")
        let legacy = try assemble {
            credentials(&$0)
            $0.appStoreServerAPI.legacyHost = true
        }
        #expect(legacy.appStore.serverAPI?.configuration.baseURL.host == "api.storekit.itunes.apple.com")
        #expect(legacy.appStore.sandboxServerAPI?.configuration.baseURL.host == "api.storekit-sandbox.itunes.apple.com")
        #expect(legacy.appStore.receiptRoots.first == AppleRootCertificates.appleIncRoot)
        try await store.close()
    }
}
