import AppStoreSimulator
import AppStoreVerification
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import PurserServer
import PurserStorage
import Testing

/// StoreKit 1: app receipts submitted over live HTTP, confirmed in each `receipts.verification` mode (locally with
/// the simulator's App Store Server API, through its `verifyReceipt`, or both); the tests of `verifyReceipt`'s own
/// statuses and faults choose that mode.
@Suite struct ReceiptSubmissionTests {
    static let modes = ServerConfiguration.ReceiptVerification.allCases

    static func mode(_ mode: ServerConfiguration.ReceiptVerification) -> (inout ServerConfiguration) -> Void {
        { $0.receipts.verification = mode }
    }

    func submit(
        _ client: some TestClientProtocol, receipt: String, transaction: String?, order: OrderID?,
        user: String
    ) async throws -> TestResponse {
        try await client.post(
            "/v1/transactions", user: user,
            json: SubmitTransactionRequest(
                receipt: receipt, transactionId: transaction, orderId: order?.description))
    }

    @Test(arguments: modes)
    func creditsEveryTransactionOfOneReceiptOnceAcrossCallbacks(_ mode: ServerConfiguration.ReceiptVerification)
        async throws
    {
        try await TestServer.run(configure: Self.mode(mode)) { server, client in
            let order60 = try await server.order("gold60", for: "alice", client: client)
            let (t60, _) = try await server.pay("gold60", token: nil, device: "phone")
            let order120 = try await server.order("gold120", for: "alice", client: client)
            let (t120, _) = try await server.pay("gold120", token: nil, device: "phone")
            let receipt = try await server.receipt(device: "phone")

            let first = try await submit(
                client, receipt: receipt, transaction: t60, order: order60.orderId, user: "alice"
            )
            .decode(DecisionResponse.self)
            #expect(first.transactionId == t60)
            #expect(first.decision == "delivered")
            #expect(first.finish)
            #expect(first.transactions?.count == 2)
            let other = first.transactions?.first { $0.transactionId == t120 }
            #expect(other?.decision == "pending", "the other callback brings its own order")
            #expect(try await client.wallet("alice") == ["gold": 60])

            let second = try await submit(
                client, receipt: receipt, transaction: t120, order: order120.orderId, user: "alice"
            )
            .decode(DecisionResponse.self)
            #expect(second.decision == "delivered")
            #expect(second.transactions?.first { $0.transactionId == t60 }?.decision == "alreadyDelivered")
            #expect(try await client.wallet("alice") == ["gold": 180])

            for (id, order) in [(t60, order60.orderId), (t120, order120.orderId)] {
                let again = try await submit(client, receipt: receipt, transaction: id, order: order, user: "alice")
                    .decode(DecisionResponse.self)
                #expect(again.decision == "alreadyDelivered")
            }
            #expect(try await client.wallet("alice") == ["gold": 180])

            // The same receipt replayed by another account, with an order of its own: nothing new for anyone.
            let bobs = try await server.order("gold60", for: "bob", client: client)
            let replay = try await submit(client, receipt: receipt, transaction: t60, order: bobs.orderId, user: "bob")
                .decode(DecisionResponse.self)
            #expect(replay.decision == "deliveredToOtherAccount")
            #expect(replay.finish)
            #expect(try await client.wallet("bob") == [:])
            #expect(try await client.wallet("alice") == ["gold": 180])
            #expect(try await server.store.statistics().grants == 2)
        }
    }

    @Test(arguments: modes)
    func aFinishedConsumableLeavesTheReceipt(_ mode: ServerConfiguration.ReceiptVerification) async throws {
        try await TestServer.run(configure: Self.mode(mode)) { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let (id, _) = try await server.pay("gold60", token: nil, device: "phone")
            let decision = try await submit(
                client, receipt: try await server.receipt(device: "phone"), transaction: id,
                order: order.orderId, user: "alice"
            ).decode(DecisionResponse.self)
            #expect(decision.finish)
            try await server.appStore.finish(transactionID: id)
            #expect(try await server.appStore.receipt(deviceId: "phone").transactionIDs.isEmpty)
        }
    }

    @Test(arguments: modes)
    func aSandboxReceiptSentToProductionIsVerifiedInTheSandbox(_ mode: ServerConfiguration.ReceiptVerification)
        async throws
    {
        try await TestServer.run(configure: Self.mode(mode)) { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let (id, _) = try await server.pay("gold60", token: nil, environment: .sandbox, device: "reviewer")
            let decision = try await submit(
                client, receipt: try await server.receipt(device: "reviewer"), transaction: id,
                order: order.orderId, user: "alice"
            ).decode(DecisionResponse.self)
            #expect(decision.decision == "delivered")
            #expect(try await server.store.transaction(id)?.transaction.environment == .sandbox)
        }
        try await TestServer.run(environments: [.production], configure: Self.mode(mode)) { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let (id, _) = try await server.pay("gold60", token: nil, environment: .sandbox, device: "reviewer")
            let decision = try await submit(
                client, receipt: try await server.receipt(device: "reviewer"), transaction: id,
                order: order.orderId, user: "alice"
            ).decode(DecisionResponse.self)
            #expect(decision.decision == "rejected")
            #expect(decision.reason?.code == "wrong_environment")
        }
    }

    @Test(arguments: [
        VerifyReceiptFault.status(21005), .status(21009), .status(21150), .http(503), .delay(seconds: 1.5),
    ])
    func appleTroubleMeansPendingAndALaterRetrySucceeds(_ fault: VerifyReceiptFault) async throws {
        try await TestServer.run(verifyReceiptTimeoutSeconds: 0.5, configure: Self.mode(.verifyReceipt)) {
            server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let (id, _) = try await server.pay("gold60", token: nil, device: "phone")
            let receipt = try await server.receipt(device: "phone")
            await server.appStore.injectVerifyReceiptFaults([fault])
            let pending = try await submit(
                client, receipt: receipt, transaction: id, order: order.orderId, user: "alice")
            #expect(pending.status == .ok)
            let decision = try pending.decode(DecisionResponse.self)
            #expect(decision.decision == "pending")
            #expect(decision.finish == false)
            #expect(try await server.store.statistics().transactions == 0)

            let retry = try await submit(client, receipt: receipt, transaction: id, order: order.orderId, user: "alice")
                .decode(DecisionResponse.self)
            #expect(retry.decision == "delivered")
            #expect(try await client.wallet("alice") == ["gold": 60])
        }
    }

    @Test func status21002IsRetriedOnceThenRejected() async throws {
        try await TestServer.run(configure: Self.mode(.verifyReceipt)) { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let (id, _) = try await server.pay("gold60", token: nil, device: "phone")
            let receipt = try await server.receipt(device: "phone")
            await server.appStore.injectVerifyReceiptFaults([.status(21002)])
            let once = try await submit(client, receipt: receipt, transaction: id, order: order.orderId, user: "alice")
            #expect(try once.decode(DecisionResponse.self).decision == "delivered")

            await server.appStore.injectVerifyReceiptFaults([.status(21002), .status(21002)])
            let twice = try await submit(client, receipt: receipt, transaction: id, order: order.orderId, user: "alice")
            #expect(twice.status == .unprocessableContent)
            #expect(twice.errorCode == "receipt_rejected")
        }
    }

    @Test(arguments: modes)
    func rejectsEveryTransactionOfAReceiptForAnotherBundle(_ mode: ServerConfiguration.ReceiptVerification) async throws
    {
        try await TestServer.run(configure: Self.mode(mode)) { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let (id, _) = try await server.pay("gold60", token: nil, bundle: "com.other.app", device: "other")
            let decision = try await submit(
                client, receipt: try await server.receipt(device: "other"), transaction: id,
                order: order.orderId, user: "alice"
            ).decode(DecisionResponse.self)
            #expect(decision.decision == "rejected")
            #expect(decision.reason?.code == "wrong_bundle")
            #expect(decision.finish)
            #expect(try await client.wallet("alice") == [:])
        }
    }

    @Test(arguments: modes)
    func refusesTruncatedAndTamperedReceiptsWithoutTouchingTheLedger(_ mode: ServerConfiguration.ReceiptVerification)
        async throws
    {
        try await TestServer.run(configure: Self.mode(mode)) { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let (id, _) = try await server.pay("gold60", token: nil, device: "phone")
            let der = try await server.appStore.receipt(deviceId: "phone").der
            var flipped = der
            flipped[flipped.count - 10] ^= 0x01  // inside the signature
            let bad = [
                Data(der.prefix(der.count / 2)).base64EncodedString(),
                Data(flipped).base64EncodedString(),
                "not base64 at all!",
            ]
            for receipt in bad {
                let response = try await submit(
                    client, receipt: receipt, transaction: id, order: order.orderId, user: "alice")
                #expect((400..<500).contains(response.status.code), "got \(response.status)")
                let codes =
                    mode == .verifyReceipt
                    ? ["malformed_receipt", "receipt_rejected"] : ["malformed_receipt", "bad_signature"]
                #expect(codes.contains(response.errorCode ?? ""), "\(mode): \(response.errorCode ?? "-")")
            }
            let statistics = try await server.store.statistics()
            #expect(statistics.transactions == 0 && statistics.grants == 0)
        }
    }

    @Test func theHTTPTransportSpeaksToVerifyReceiptOverTheWire() async throws {
        try await TestServer.run { server, client in
            let port = try #require(client.port)
            _ = try await server.pay("gold60", token: nil, environment: .sandbox, device: "phone")
            let verifier = VerifyReceiptClient(
                configuration: .init(
                    productionURL: URL(string: "http://127.0.0.1:\(port)/simulator/production/verifyReceipt")!,
                    sandboxURL: URL(string: "http://127.0.0.1:\(port)/simulator/sandbox/verifyReceipt")!),
                transport: HTTPClientTransport())
            guard
                case .verified(let receipt, let environment) = await verifier.verify(
                    receipt: try await server.receipt(device: "phone"))
            else {
                Issue.record("not verified")
                return
            }
            #expect(environment == .sandbox)
            #expect(receipt.inApp.map(\.productId) == ["gold60"])
            await server.appStore.injectVerifyReceiptFaults([.http(502)])
            guard case .retryLater = await verifier.verify(receipt: try await server.receipt(device: "phone")) else {
                Issue.record("a 502 must mean retry later")
                return
            }
        }
    }
}
