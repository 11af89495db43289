import AppStoreSimulator
import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import PurserCore
import PurserServer
import PurserStorage
import Testing

@Suite struct SubmissionTests {
    @Test func creditsOnceThenAnswersAlreadyDeliveredAndOtherAccount() async throws {
        try await TestServer.run { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            #expect(order.appAccountToken == order.orderId.description)
            let (id, jws) = try await server.pay("gold60", token: order.appAccountToken)

            let first = try await client.submit(jws, user: "alice").decode(DecisionResponse.self)
            #expect(first.decision == "delivered")
            #expect(first.finish)
            #expect(first.transactionId == id)
            #expect(first.grants == Grants(["gold": 60]))
            #expect(first.orderId == order.orderId)

            let again = try await client.submit(jws, user: "alice").decode(DecisionResponse.self)
            #expect(again.decision == "alreadyDelivered")
            #expect(again.finish)

            let byBob = try await client.submit(jws, user: "bob").decode(DecisionResponse.self)
            #expect(byBob.decision == "deliveredToOtherAccount")
            #expect(byBob.finish)
            #expect(byBob.grants == nil)

            #expect(try await client.wallet("alice") == ["gold": 60])
            #expect(try await client.wallet("bob") == [:])
            let fulfilled = try await client.get("/v1/orders/\(order.orderId)", user: "alice").decode(
                OrderResponse.self)
            #expect(fulfilled.state == .delivered)
            #expect(fulfilled.transactionId == id)
            #expect(try await client.get("/v1/orders/\(order.orderId)", user: "bob").status == .notFound)
        }
    }

    @Test func anotherAccountSubmittingFirstCreditsTheOrdersOwner() async throws {
        try await TestServer.run { server, client in
            let order = try await server.order("gold120", for: "alice", client: client)
            let (_, jws) = try await server.pay("gold120", token: order.appAccountToken)
            let decision = try await client.submit(jws, user: "bob").decode(DecisionResponse.self)
            #expect(decision.decision == "deliveredToOtherAccount")
            #expect(try await client.wallet("alice") == ["gold": 120])
            #expect(try await client.wallet("bob") == [:])
            #expect(
                try await client.submit(jws, user: "alice").decode(DecisionResponse.self).decision == "alreadyDelivered"
            )
        }
    }

    @Test func rejectsGenuineTransactionsThatAreNotForThisApp() async throws {
        try await TestServer.run(environments: [.production]) { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let cases: [(String, (id: String, jws: String))] = [
                (
                    "unknown_product",
                    try await server.pay("gems500", token: order.appAccountToken, environment: .production)
                ),
                (
                    "wrong_bundle",
                    try await server.pay(
                        "gold60", token: order.appAccountToken, environment: .production,
                        bundle: "com.other.app")
                ),
                (
                    "wrong_environment",
                    try await server.pay("gold60", token: order.appAccountToken, environment: .sandbox)
                ),
            ]
            for (code, purchase) in cases {
                let response = try await client.submit(purchase.jws, user: "alice")
                #expect(response.status == .ok)
                let decision = try response.decode(DecisionResponse.self)
                #expect(decision.decision == "rejected")
                #expect(decision.finish)
                #expect(decision.reason?.code == code)
                let stored = try await server.store.transaction(purchase.id)
                #expect(stored?.state == .rejected, "the rejection is recorded before the client may finish")
            }
            #expect(try await client.wallet("alice") == [:])
            #expect(
                try await client.get("/v1/orders/\(order.orderId)", user: "alice").decode(OrderResponse.self).state
                    == .created)
        }
    }

    @Test func neverCreditsARevokedTransaction() async throws {
        try await TestServer.run { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let (id, _) = try await server.pay("gold60", token: order.appAccountToken)
            let refunded = try await server.appStore.refund(transactionID: id)
            let decision = try await client.submit(refunded.signed, user: "alice").decode(DecisionResponse.self)
            #expect(decision.decision == "revoked")
            #expect(decision.finish)
            #expect(try await client.wallet("alice") == [:])
        }
    }

    @Test func keepsATransactionWithoutOrderUnboundUntilTheOwnersHintArrives() async throws {
        try await TestServer.run { server, client in
            let (id, jws) = try await server.pay("gold60", token: nil)
            let pending = try await client.submit(jws, user: "alice").decode(DecisionResponse.self)
            #expect(pending.decision == "pending")
            #expect(pending.finish == false)
            #expect(pending.reason?.code == "unbound")
            #expect(try await server.store.transaction(id)?.state == .unbound)

            let order = try await server.order("gold60", for: "alice", client: client)
            let bound = try await client.submit(jws, user: "alice", orderId: order.orderId.description).decode(
                DecisionResponse.self)
            #expect(bound.decision == "delivered")
            #expect(try await client.wallet("alice") == ["gold": 60])
        }
    }

    @Test func fiftyConcurrentSubmissionsOfOneTransactionCreditItOnce() async throws {
        try await TestServer.run { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let (_, jws) = try await server.pay("gold60", token: order.appAccountToken)
            let port = try #require(client.port)
            let http = HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: .init(
                    connectionPool: .init(
                        idleTimeout: .seconds(10),
                        concurrentHTTP1ConnectionsPerHostSoftLimit: 50)))
            let body = try JSONEncoder().encode(SubmitTransactionRequest(signedTransaction: jws))
            let decisions = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<50 {
                    group.addTask {
                        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/transactions")
                        request.method = .POST
                        request.headers.add(name: "Content-Type", value: "application/json")
                        request.headers.add(name: "X-Purser-User", value: index.isMultiple(of: 2) ? "alice" : "bob")
                        request.body = .bytes(ByteBuffer(bytes: body))
                        let response = try await http.execute(request, timeout: .seconds(30))
                        let bytes = try await response.body.collect(upTo: 1 << 16)
                        return try JSONDecoder().decode(DecisionResponse.self, from: Data(bytes.readableBytesView))
                            .decision
                    }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            try await http.shutdown()
            #expect(decisions.count == 50)
            let credits = decisions.filter { $0 == "delivered" || $0 == "deliveredToOtherAccount" }
            #expect(decisions.filter { $0 == "delivered" }.count <= 1)
            #expect(credits.count >= 1)
            #expect(try await client.wallet("alice") == ["gold": 60])
            #expect(try await client.wallet("bob") == [:])
            #expect(try await server.store.statistics().grants == 1)
        }
    }
}
