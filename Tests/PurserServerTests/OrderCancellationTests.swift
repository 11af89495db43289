import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import PurserServer
import PurserStorage
import Testing

/// `POST /v1/orders/{id}/cancel`: the app reports a payment that never happened; Apple's signed token still wins.
@Suite struct OrderCancellationTests {
    func cancel(
        _ orderID: String, user: String?, reason: String = "payment_cancelled",
        client: some TestClientProtocol
    ) async throws -> TestResponse {
        try await client.post("/v1/orders/\(orderID)/cancel", user: user, json: CancelOrderRequest(reason: reason))
    }

    @Test func cancelsAWaitingOrderOnceAndOnlyForItsOwner() async throws {
        try await TestServer.run { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let id = order.orderId.description

            let byBob = try await cancel(id, user: "bob", client: client)
            #expect(byBob.status == .notFound)
            #expect(byBob.errorCode == "not_found")

            let first = try await cancel(id, user: "alice", client: client)
            #expect(first.status == .ok)
            let cancelled = try first.decode(OrderResponse.self)
            #expect(cancelled.state == .cancelled)
            #expect(cancelled.orderId == order.orderId)
            #expect(cancelled.transactionId == nil)

            let again = try await cancel(id, user: "alice", reason: "store_error", client: client)
            #expect(again.status == .ok)
            #expect(String(buffer: again.body) == String(buffer: first.body), "a repeated cancel answers the same body")

            #expect(
                try await client.get("/v1/orders/\(id)", user: "alice").decode(OrderResponse.self).state == .cancelled)
            let trail = try await server.store.auditTrail(of: id)
            #expect(trail.map(\.event) == ["cancelled"])
            #expect(trail.first?.subject == .order)
            #expect(trail.first?.cause == "client")
            #expect(trail.first?.detail == "payment_cancelled")

            for unknown in [OrderID.random().description, "not-a-uuid"] {
                let response = try await cancel(unknown, user: "alice", client: client)
                #expect(response.status == .notFound)
                #expect(response.errorCode == "not_found")
            }
            let anonymous = try await cancel(id, user: nil, client: client)
            #expect(anonymous.status == .unauthorized)
        }
    }

    @Test func refusesEmptyAndOversizedReasonsAndLeavesTheOrderWaiting() async throws {
        try await TestServer.run { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let id = order.orderId.description
            for reason in ["", "   ", String(repeating: "x", count: 65)] {
                let response = try await cancel(id, user: "alice", reason: reason, client: client)
                #expect(response.status == .badRequest, "reason \(reason.debugDescription)")
                #expect(response.errorCode == "invalid_reason", "reason \(reason.debugDescription)")
            }
            let missing = try await client.post(
                "/v1/orders/\(id)/cancel", user: "alice", body: ByteBuffer(string: "{}"))
            #expect(missing.status == .badRequest)
            #expect(missing.errorCode == "malformed_json")
            let empty = try await client.post("/v1/orders/\(id)/cancel", user: "alice", body: nil)
            #expect(empty.errorCode == "empty_body")

            #expect(
                try await client.get("/v1/orders/\(id)", user: "alice").decode(OrderResponse.self).state == .created)
            #expect(try await server.store.auditTrail(of: id).isEmpty)

            let longest = try await cancel(id, user: "alice", reason: String(repeating: "x", count: 64), client: client)
            #expect(longest.status == .ok, "64 characters is the limit, inclusive")
        }
    }

    @Test func refusesToCancelADeliveredOrder() async throws {
        try await TestServer.run { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let (transactionID, jws) = try await server.pay("gold60", token: order.appAccountToken)
            #expect(try await client.submit(jws, user: "alice").decode(DecisionResponse.self).decision == "delivered")

            let response = try await cancel(order.orderId.description, user: "alice", client: client)
            #expect(response.status == .conflict)
            #expect(response.errorCode == "order_delivered")
            let stored = try await client.get("/v1/orders/\(order.orderId)", user: "alice").decode(OrderResponse.self)
            #expect(stored.state == .delivered)
            #expect(stored.transactionId == transactionID)
            #expect(try await server.store.auditTrail(of: order.orderId.description).map(\.event) == ["delivered"])
            #expect(try await client.wallet("alice") == ["gold": 60])
        }
    }

    /// The app may report a cancel for a payment Apple charged after all (a late success, a cancel sent in error):
    /// the signed `appAccountToken` still names the order, so its owner is credited, once.
    @Test func creditsATokenBoundPaymentForACancelledOrderToItsOwner() async throws {
        try await TestServer.run { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            #expect(try await cancel(order.orderId.description, user: "alice", client: client).status == .ok)
            let (transactionID, jws) = try await server.pay("gold60", token: order.appAccountToken)

            let decision = try await client.submit(jws, user: "alice").decode(DecisionResponse.self)
            #expect(decision.decision == "delivered")
            #expect(decision.finish)
            #expect(decision.orderId == order.orderId)
            #expect(decision.grants == Grants(["gold": 60]))
            let again = try await client.submit(jws, user: "alice").decode(DecisionResponse.self)
            #expect(again.decision == "alreadyDelivered")
            #expect(
                try await client.submit(jws, user: "bob").decode(DecisionResponse.self).decision
                    == "deliveredToOtherAccount")

            #expect(try await client.wallet("alice") == ["gold": 60])
            #expect(try await client.wallet("bob") == [:])
            #expect(try await server.store.statistics().grants == 1)
            let stored = try #require(try await server.store.transaction(transactionID))
            #expect(stored.state == .credited)
            #expect(stored.ownerID == "alice")
            #expect(stored.orderID == order.orderId)
            let shown = try await client.get("/v1/orders/\(order.orderId)", user: "alice").decode(OrderResponse.self)
            #expect(shown.state == .delivered)
            #expect(shown.transactionId == stored.transaction.transactionID)
        }
    }

    /// Without a token, a hint binds only a waiting order: a cancelled one leaves the transaction unbound.
    @Test func keepsAHintedTransactionForACancelledOrderUnbound() async throws {
        try await TestServer.run { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            #expect(try await cancel(order.orderId.description, user: "alice", client: client).status == .ok)
            let (transactionID, jws) = try await server.pay("gold60", token: nil)

            let decision = try await client.submit(jws, user: "alice", orderId: order.orderId.description)
                .decode(DecisionResponse.self)
            #expect(decision.decision == "pending")
            #expect(decision.finish == false)
            #expect(decision.reason?.code == "unbound")
            #expect(try await server.store.transaction(transactionID)?.state == .unbound)
            #expect(try await client.wallet("alice") == [:])
            #expect(
                try await client.get("/v1/orders/\(order.orderId)", user: "alice").decode(OrderResponse.self).state
                    == .cancelled)
        }
    }
}
