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

/// The admin API answers an operator's mistake with a 4xx and a stable code, never a 500, and a grant that changes
/// nothing says so.
@Suite struct AdminAPITests {
    func grantBody(_ id: String, to user: String, reason: String = "ticket 1: paid, got nothing") -> String {
        #"{"transactionId": "\#(id)", "userId": "\#(user)", "reason": "\#(reason)"}"#
    }

    @Test func unknownAndMalformedTransactionIdsAre404And400() async throws {
        try await TestServer.run { server, client in
            let unknown = try await client.admin(.get, "/admin/v1/transactions/9999999")
            #expect(unknown.status == .notFound)
            #expect(unknown.errorCode == "not_found")
            let malformed = try await client.admin(.get, "/admin/v1/transactions/abc")
            #expect(malformed.status == .badRequest)
            #expect(malformed.errorCode == "invalid_transaction_id")
            let grantUnknown = try await client.admin(
                .post, "/admin/v1/grants", body: grantBody("9999999", to: "alice"))
            #expect(grantUnknown.status == .notFound)
            #expect(grantUnknown.errorCode == "not_found")
            let grantMalformed = try await client.admin(.post, "/admin/v1/grants", body: grantBody("12a", to: "alice"))
            #expect(grantMalformed.status == .badRequest)
            #expect(grantMalformed.errorCode == "invalid_transaction_id")
            let longOrder = try await client.admin(.get, "/admin/v1/orders/" + String(repeating: "M", count: 3000))
            #expect(longOrder.status == .badRequest)
            #expect(longOrder.errorCode == "invalid_order_id")
            #expect(try await server.store.statistics().transactions == 0)
        }
    }

    @Test func aGrantOfATransactionCreditedToAnotherAccountIsA409NamingTheOwner() async throws {
        try await TestServer.run { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let (id, jws) = try await server.pay("gold60", token: order.appAccountToken)
            #expect(try await client.submit(jws, user: "alice").status == .ok)

            let toBob = try await client.admin(.post, "/admin/v1/grants", body: grantBody(id, to: "bob"))
            #expect(toBob.status == .conflict)
            #expect(toBob.errorCode == "already_credited")
            #expect(try toBob.decode(APIErrorResponse.self).error.message.contains("alice"))
            #expect(try await client.wallet("bob") == [:])
            #expect(try await client.wallet("alice") == ["gold": 60])

            // To the owner it is the same credit, answered again: nothing new.
            let toAlice = try await client.admin(.post, "/admin/v1/grants", body: grantBody(id, to: "alice"))
            #expect(toAlice.status == .ok)
            #expect(try toAlice.decode(SupportService.TransactionView.self).ownerId == "alice")
            #expect(try await client.wallet("alice") == ["gold": 60])
        }
    }

    /// A grant of a transaction the ledger has not seen, whose token names gina's order, credits gina: the answer
    /// says so (once a 409 "already credited to gina; nothing was changed", from the very call that credited her).
    @Test func aGrantThatCreditsTheTokensOwnerAnswersWithThatOwner() async throws {
        try await TestServer.run { server, client in
            await server.appStore.pauseNotifications(true)
            let order = try await server.order("gold60", for: "gina", client: client)
            let (id, _) = try await server.pay("gold60", token: order.appAccountToken)
            let toHank = try await client.admin(.post, "/admin/v1/grants", body: grantBody(id, to: "hank"))
            #expect(toHank.status == .ok)
            #expect(try toHank.decode(SupportService.TransactionView.self).ownerId == "gina")
            #expect(try await client.wallet("gina") == ["gold": 60])
            #expect(try await client.wallet("hank") == [:])
            // Asked again, nothing new happens, and the answer is the 409 naming gina.
            let again = try await client.admin(.post, "/admin/v1/grants", body: grantBody(id, to: "hank"))
            #expect(again.status == .conflict)
            #expect(again.errorCode == "already_credited")
        }
    }

    @Test func aGrantOfARefundedTransactionIsA409AndABlankUserA400() async throws {
        try await TestServer.run { server, client in
            await server.appStore.pauseNotifications(true)
            let (id, _) = try await server.pay("gold120", token: nil)
            _ = try await server.appStore.refund(transactionID: id)
            let blank = try await client.admin(.post, "/admin/v1/grants", body: grantBody(id, to: " \\t"))
            #expect(blank.status == .badRequest)
            #expect(blank.errorCode == "invalid_user_id")
            let refunded = try await client.admin(.post, "/admin/v1/grants", body: grantBody(id, to: "alice"))
            #expect(refunded.status == .conflict)
            #expect(refunded.errorCode == "not_grantable")
            #expect(try await client.wallet("alice") == [:])
        }
    }

    /// Binding an unbound purchase to the user's waiting order completes the order: the app that polls it sees it
    /// delivered. Another account's order is refused, and nothing changes.
    @Test func aGrantBoundToTheUsersWaitingOrderCompletesIt() async throws {
        try await TestServer.run { server, client in
            await server.appStore.pauseNotifications(true)
            let order = try await server.order("gold60", for: "alice", client: client)
            let bobs = try await server.order("gold60", for: "bob", client: client)
            let (id, _) = try await server.pay("gold60", token: nil)
            func grant(order: String) -> String {
                #"{"transactionId": "\#(id)", "userId": "alice", "reason": "ticket 2", "orderId": "\#(order)"}"#
            }
            let toBobsOrder = try await client.admin(
                .post, "/admin/v1/grants", body: grant(order: bobs.orderId.description))
            #expect(toBobsOrder.status == .conflict)
            #expect(toBobsOrder.errorCode == "not_grantable")
            let notAnOrder = try await client.admin(.post, "/admin/v1/grants", body: grant(order: "abc"))
            #expect(notAnOrder.errorCode == "invalid_order_id")
            #expect(try await server.store.transaction(id) == nil, "a refused grant records nothing")

            let granted = try await client.admin(
                .post, "/admin/v1/grants", body: grant(order: order.orderId.description))
            #expect(granted.status == .ok)
            #expect(try granted.decode(SupportService.TransactionView.self).orderId == order.orderId)
            let delivered = try await client.get("/v1/orders/\(order.orderId)", user: "alice").decode(
                OrderResponse.self)
            #expect(delivered.state == .delivered)
            #expect(delivered.transactionId == id)
            #expect(try await client.wallet("alice") == ["gold": 60])
            #expect(try await server.store.auditTrail(of: order.orderId.description).map(\.event) == ["delivered"])
        }
    }

    /// A non-consumable Apple signed as a consumable is refused; support may override that refusal, explicitly and
    /// audited, and only that one: the purchase is then credited to its owner and owned.
    @Test func aGrantOverridesATypeMismatchOnlyWhenAsked() async throws {
        try await TestServer.run { server, client in
            await server.appStore.pauseNotifications(true)
            let order = try await server.order("noads", for: "yara", client: client)
            let (transaction, jws) = try await server.appStore.purchase(
                .init(productId: "noads", appAccountToken: order.appAccountToken, type: "Consumable"))
            let id = transaction.transactionId
            #expect(try await client.submit(jws, user: "yara").decode(DecisionResponse.self).decision == "rejected")
            func grant(_ override: String?) -> String {
                let field = override.map { #", "override": "\#($0)""# } ?? ""
                return #"{"transactionId": "\#(id)", "userId": "yara", "reason": "ticket 4"\#(field)}"#
            }
            let plain = try await client.admin(.post, "/admin/v1/grants", body: grant(nil))
            #expect(plain.status == .unprocessableContent)
            #expect(plain.errorCode == "product_type_mismatch")
            #expect(String(buffer: plain.body).contains("grant with override product_type_mismatch"))
            let wrong = try await client.admin(.post, "/admin/v1/grants", body: grant("wrong_bundle"))
            #expect(wrong.status == .badRequest)
            #expect(wrong.errorCode == "invalid_override")
            #expect(try await client.get("/v1/wallet", user: "yara").decode(WalletResponse.self).entitlements == [])

            let overridden = try await client.admin(.post, "/admin/v1/grants", body: grant("product_type_mismatch"))
            #expect(overridden.status == .ok)
            let view = try overridden.decode(SupportService.TransactionView.self)
            #expect(view.ledger == "credited" && view.ownerId == "yara" && view.rejection == nil)
            let override = try #require(view.audit.first { $0.event == "override" })
            #expect(override.cause.hasPrefix("support by sam for yara: ticket 4"))
            #expect(override.detail.hasPrefix("product_type_mismatch overridden"))
            #expect(
                try await client.get("/v1/wallet", user: "yara").decode(WalletResponse.self).entitlements == ["noads"])
            let again = try await client.admin(.post, "/admin/v1/grants", body: grant("product_type_mismatch"))
            #expect(again.status == .ok, "granting again to the owner answers the same view")
            #expect(try await server.store.balances(of: "yara") == ["noads": 1])
        }
    }
}
