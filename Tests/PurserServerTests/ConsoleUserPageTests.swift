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

/// "I paid and got nothing": a user's page shows every purchase and order of theirs, the refused one included, and a
/// purchase's timeline shows what Apple signed (the token and its order, the price) and why it was refused.
@Suite struct ConsoleUserPageTests {
    @Test func aUserPageListsARefusedPurchaseAndAWaitingOrder() async throws {
        try await TestServer.run(configure: ConsoleTests.configure) { server, client in
            await server.appStore.pauseNotifications(true)
            let paid = try await server.order("gold60", for: "zoe", client: client)
            let (creditedID, jws) = try await server.pay("gold60", token: paid.appAccountToken)
            #expect(try await client.submit(jws, user: "zoe").status == .ok)
            // A non-consumable Apple signed as a consumable: refused, paid, nothing delivered.
            let noads = try await server.order("noads", for: "zoe", client: client)
            let (refused, refusedJWS) = try await server.appStore.purchase(
                .init(productId: "noads", appAccountToken: noads.appAccountToken, type: "Consumable"))
            let decision = try await client.submit(refusedJWS, user: "zoe").decode(DecisionResponse.self)
            #expect(decision.reason?.code == "product_type_mismatch")
            let waiting = try await server.order("gold120", for: "zoe", client: client)
            _ = try await server.order("gold60", for: "yan", client: client)

            let session = try await ConsoleTests.signIn(client)
            let search = String(
                buffer: try await ConsoleTests.get(client, "/console/search?q=zoe", cookie: session).body)
            #expect(search.contains(#"href="/console/users?id=zoe""#), "the search links the user page")

            let response = try await ConsoleTests.get(client, "/console/users?id=zoe", cookie: session)
            #expect(response.status == .ok)
            let page = String(buffer: response.body)
            for part in [
                creditedID, refused.transactionId, "product_type_mismatch", decision.reason?.message ?? "?",
                waiting.orderId.description, noads.orderId.description, ">created<", ">rejected<", ">gold<",
            ] {
                #expect(page.contains(part), "the user page lacks \(part)")
            }
            #expect(!page.contains("yan"), "another user's order is not on zoe's page")

            let timeline = String(
                buffer: try await ConsoleTests.get(
                    client, "/console/transactions/\(refused.transactionId)", cookie: session
                )
                .body)
            #expect(timeline.contains("It was refused: \(decision.reason?.message ?? "?") (product_type_mismatch)"))
            #expect(timeline.contains("\(noads.orderId) · names the order of zoe (noads, created)"), "\(timeline)")
            #expect(timeline.contains(#"<dd id="price">0.99 USD</dd>"#))
            #expect(!timeline.contains(#"id="trace""#), "a purchase settled untraced shows a trace")
        }
    }

    /// A purchase whose settlement was traced shows its trace id (the ledger's link, `tracing.otlp.endpoint`), so
    /// support opens the trace from the purchase.
    @Test func aTracedPurchaseShowsItsTraceID() async throws {
        try await TestServer.run(configure: ConsoleTests.configure) { server, client in
            let paid = try await server.order("gold60", for: "zoe", client: client)
            let (transactionID, jws) = try await server.pay("gold60", token: paid.appAccountToken)
            #expect(try await client.submit(jws, user: "zoe").status == .ok)
            // A traced settlement of it (a repeat, as a retry with tracing on would be) links it to its trace.
            let record = try #require(try await server.store.transaction(transactionID))
            let gold = try #require(TestServer.catalog.product("gold60"))
            var traced = Submission(
                transaction: record.transaction, assessment: .creditable(gold), source: .client("zoe"))
            traced.traceParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
            #expect(try await server.store.settle(traced, now: Date()).decision == .alreadyDelivered)
            let session = try await ConsoleTests.signIn(client)
            let timeline = String(
                buffer: try await ConsoleTests.get(client, "/console/transactions/\(transactionID)", cookie: session)
                    .body)
            #expect(timeline.contains(#"<dd id="trace">4bf92f3577b34da6a3ce929d0e0e4736</dd>"#), "\(timeline)")
        }
    }
}
