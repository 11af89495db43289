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

/// Undecidable input gets a 4xx with a stable code and leaves the ledger exactly as it was.
@Suite struct BadInputTests {
    func expectRefused(
        _ response: TestResponse, status: HTTPResponse.Status, code: String, server: TestServer,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.errorCode == code, "body: \(String(buffer: response.body))", sourceLocation: sourceLocation)
        let statistics = try await server.store.statistics()
        #expect(
            statistics.transactions == 0 && statistics.grants == 0 && statistics.auditEvents == 0,
            sourceLocation: sourceLocation)
    }

    @Test func refusesBodiesThatAreNotASubmission() async throws {
        try await TestServer.run { server, client in
            try await expectRefused(
                try await client.post("/v1/transactions", user: "alice", body: ByteBuffer(string: "{not json")),
                status: .badRequest, code: "malformed_json", server: server)
            try await expectRefused(
                try await client.post("/v1/transactions", user: "alice", body: nil),
                status: .badRequest, code: "empty_body", server: server)
            try await expectRefused(
                try await client.post("/v1/transactions", user: "alice", body: ByteBuffer(string: "{}")),
                status: .badRequest, code: "missing_transaction", server: server)
            try await expectRefused(
                try await client.post(
                    "/v1/transactions", user: "alice",
                    body: ByteBuffer(string: #"{"signedTransaction": 42}"#)),
                status: .badRequest, code: "malformed_json", server: server)
            let array = try await client.post("/v1/transactions", user: "alice", body: ByteBuffer(string: "[1, 2]"))
            try await expectRefused(array, status: .badRequest, code: "malformed_json", server: server)
            #expect(String(buffer: array.body).contains("the body must be a JSON object"))
            let huge = ByteBuffer(
                string: #"{"signedTransaction": ""# + String(repeating: "A", count: 2 * 1024 * 1024) + #""}"#)
            try await expectRefused(
                try await client.post("/v1/transactions", user: "alice", body: huge),
                status: .contentTooLarge, code: "body_too_large", server: server)
        }
    }

    @Test func refusesForgedAndBrokenSignatures() async throws {
        try await TestServer.run { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let (_, jws) = try await server.pay("gold60", token: order.appAccountToken)
            let parts = jws.split(separator: ".").map(String.init)
            let header = try #require(Base64URL.decode(parts[0].utf8))
            let x5c = try #require(
                (try JSONSerialization.jsonObject(with: header) as? [String: Any])?["x5c"] as? [String])

            func withHeader(_ object: [String: Any]) throws -> String {
                Base64URL.encode(try JSONSerialization.data(withJSONObject: object)) + "." + parts[1] + "." + parts[2]
            }
            var tampered = try JSONDecoder().decode(
                JWSTransaction.self, from: try #require(Base64URL.decode(parts[1].utf8)))
            tampered.quantity = 10
            let tamperedJWS = parts[0] + "." + Base64URL.encode(try JSONEncoder().encode(tampered)) + "." + parts[2]

            let foreign = try SimulatorCertificateAuthority.generate(validity: .standard(now: Date()))
            let foreignStore = try SimulatedAppStore(
                signer: JWSSigner(authority: foreign),
                configuration: .init(defaultBundleID: TestServer.bundleID))
            let foreignJWS = try await foreignStore.purchase(
                .init(productId: "gold60", appAccountToken: order.appAccountToken)
            ).signed
            let noMarker = try SimulatorCertificateAuthority.generate(
                validity: .standard(now: Date()),
                defects: .init(omitLeafMarker: true))
            let leafWithoutOID = try JWSSigner(authority: noMarker).sign(
                try JSONDecoder().decode(JWSTransaction.self, from: try #require(Base64URL.decode(parts[1].utf8))))

            let cases: [(String, HTTPResponse.Status, String)] = [
                (parts[0] + "." + parts[1], .badRequest, "malformed"),
                (parts[0] + ".%%%." + parts[2], .badRequest, "malformed"),
                (
                    try withHeader(["alg": "ES256", "x5c": Array(x5c.prefix(2))]), .unprocessableContent,
                    "untrusted_chain"
                ),
                (tamperedJWS, .unprocessableContent, "bad_signature"),
                (foreignJWS, .unprocessableContent, "untrusted_chain"),
            ]
            for (jws, status, code) in cases {
                try await expectRefused(
                    try await client.submit(jws, user: "alice"), status: status, code: code, server: server)
            }
            // The leaf without Apple's OID chains to a root this server does not trust either way; trust is checked
            // after the markers, so the code names the missing OID.
            try await expectRefused(
                try await client.submit(leafWithoutOID, user: "alice"),
                status: .unprocessableContent, code: "missing_apple_oid", server: server)
            #expect(try await client.wallet("alice") == [:])
        }
    }

    @Test func refusesUnauthenticatedAndUnknownRequests() async throws {
        try await TestServer.run { server, client in
            try await expectRefused(
                try await client.post("/v1/orders", user: nil, json: CreateOrderRequest(productId: "gold60")),
                status: .unauthorized, code: "unauthenticated", server: server)
            try await expectRefused(
                try await client.post("/v1/orders", user: "alice", json: CreateOrderRequest(productId: "nope")),
                status: .unprocessableContent, code: "unknown_product", server: server)
            try await expectRefused(
                try await client.post(
                    "/v1/orders", user: "alice",
                    json: CreateOrderRequest(productId: "gold60", quantity: 11)),
                status: .badRequest, code: "invalid_quantity", server: server)
            try await expectRefused(
                try await client.get("/v1/orders/not-a-uuid", user: "alice"),
                status: .notFound, code: "not_found", server: server)
            try await expectRefused(
                try await client.submit("a.b.c", user: "alice", orderId: "nope"),
                status: .badRequest, code: "invalid_order_id", server: server)
            let health = try await client.get("/health", user: nil)
            #expect(health.status == .ok)
            // A load balancer's HEAD probe (once 405).
            #expect(try await client.execute(uri: "/health", method: .head).status == .ok)
        }
    }

    /// An error message repeats at most 100 characters of what the client sent: a 10,000-character product id, key
    /// name or hold id comes back cut, with `…`.
    @Test func echoesAtMostAHundredCharactersOfAnInput() async throws {
        try await TestServer.run { _, client in
            let long = String(repeating: "x", count: 10_000)
            let order = try await client.post(
                "/v1/orders", user: "amy", json: CreateOrderRequest(productId: long))
            #expect(order.status == .unprocessableContent && order.errorCode == "unknown_product")
            let hold = try await client.admin(.post, "/admin/v1/holds/\(long)/void")
            let key = try await client.admin(.delete, "/admin/v1/keys/\(long)")
            for response in [order, hold, key] {
                let message = try response.decode(APIErrorResponse.self).error.message
                #expect(message.count < 200 && message.contains(String(repeating: "x", count: 100) + "…"), "\(message)")
            }
        }
    }

    /// The work a body costs before it is refused is bounded by its size: a wallet change of 60,000 metadata keys
    /// (650 KB, which took seconds of CPU to refuse) is 413 before it is parsed, while a submission keeps room for a
    /// StoreKit 1 receipt of every transaction of a device.
    @Test func boundsTheBodiesOfEveryRouteButReceiptsAndNotifications() async throws {
        try await TestServer.run { _, client in
            let keys = (0..<60_000).map { #""k\#($0)": \#($0)"# }.joined(separator: ",")
            let wallet = try await client.admin(
                .post, "/admin/v1/wallets/amy/transactions",
                body: #"{"id": "big", "amounts": {"gold": 1}, "reason": "r", "metadata": {\#(keys)}}"#)
            #expect(wallet.status == .contentTooLarge && wallet.errorCode == "body_too_large")
            let receipt = String(repeating: "A", count: 500_000)
            let submission = try await client.post(
                "/v1/transactions", user: "amy", json: SubmitTransactionRequest(receipt: receipt))
            #expect(submission.status != .contentTooLarge, "a large receipt is read: \(submission.status)")
        }
    }
}
