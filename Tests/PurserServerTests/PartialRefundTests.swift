import AppStoreSimulator
import AppStoreVerification
import Foundation
import Hummingbird
import HummingbirdTesting
import PurserCore
import PurserServer
import PurserWebhooks
import Testing

@testable import PurserStorage

/// Apple's partial refunds (`REFUND_PRORATED` with `revocationPercentage`), made through the simulator's control API
/// and sent to the server as signed notifications, over live HTTP; the wallet and the audit read back over HTTP.
@Suite struct PartialRefundTests {
    /// The part of the simulator's answer to a refund read here.
    struct Refunded: Decodable {
        var transaction: JWSTransaction
    }

    /// A refund through the simulator's control API: `percentage` milliunits of the purchase, or all of it.
    func refund(_ id: String, percentage: Int?, client: some TestClientProtocol) async throws -> JWSTransaction {
        var body = #"{"reason": 1"#
        if let percentage { body += #", "revocationType": "REFUND_PRORATED", "revocationPercentage": \#(percentage)"# }
        let response = try await client.post(
            "/simulator/v1/transactions/\(id)/refund", user: nil, body: ByteBuffer(string: body + "}"))
        #expect(response.status == .ok)
        return try response.decode(Refunded.self).transaction
    }

    func audit(_ id: String, client: some TestClientProtocol) async throws -> [AuditEvent] {
        try await client.admin(.get, "/admin/v1/transactions/\(id)").decode(SupportService.TransactionView.self).audit
    }

    /// Credits `product` to `user` through an order, the app's submission and the ONE_TIME_CHARGE notification.
    func credited(_ product: String, to user: String, server: TestServer, client: some TestClientProtocol)
        async throws -> String
    {
        let order = try await server.order(product, for: user, client: client)
        let (id, jws) = try await server.pay(product, token: order.appAccountToken)
        _ = try await client.submit(jws, user: user)
        await server.appStore.deliverDueNotifications(force: true)
        return id
    }

    @Test func fiftyThenThirtyPercentRevokesEightyAndAReversalRestoresIt() async throws {
        try await TestServer.run { server, client in
            let id = try await credited("gold60", to: "alice", server: server, client: client)
            #expect(try await client.wallet("alice") == ["gold": 60])

            let first = try await refund(id, percentage: 50_000, client: client)
            #expect(first.revocationType == .refundProrated && first.revocationPercentage == 50_000)
            #expect(await server.appStore.deliverDueNotifications(force: true) == 1)
            #expect(try await client.wallet("alice") == ["gold": 30])

            let second = try await refund(id, percentage: 30_000, client: client)
            #expect(second.revocationPercentage == 80_000, "Apple's percentage is the share refunded so far")
            #expect(await server.appStore.deliverDueNotifications(force: true) == 1)
            #expect(try await client.wallet("alice") == ["gold": 12], "floor(60 × 0.8) = 48 revoked")
            let revoked = try await audit(id, client: client).filter { $0.event == "revoked" }.map(\.detail)
            #expect(
                revoked == [
                    "from alice gold-30 (REFUND_PRORATED: 0.000% → 50.000% of the purchase revoked)",
                    "from alice gold-18 (REFUND_PRORATED: 50.000% → 80.000% of the purchase revoked)",
                ])

            try await server.appStore.reverseRefund(transactionID: id)
            #expect(await server.appStore.deliverDueNotifications(force: true) == 1)
            #expect(try await client.wallet("alice") == ["gold": 60])
            #expect(try await audit(id, client: client).last?.detail == "to alice gold+48")
            #expect(try await server.store.transaction(id)?.state == .credited)
        }
    }

    @Test func theCumulativeShareIsRoundedDownOnceNotPerRefund() async throws {
        try await TestServer.run { server, client in
            let id = try await credited("gold60", to: "bob", server: server, client: client)
            _ = try await refund(id, percentage: 33_333, client: client)
            await server.appStore.deliverDueNotifications(force: true)
            #expect(try await client.wallet("bob") == ["gold": 41], "floor(60 × 0.33333) = 19")
            _ = try await refund(id, percentage: 33_333, client: client)
            await server.appStore.deliverDueNotifications(force: true)
            // floor(60 × 0.66666) = 39 in all: 20 now, where rounding each refund alone would take 19 + 19.
            #expect(try await client.wallet("bob") == ["gold": 21])
            _ = try await refund(id, percentage: nil, client: client)  // the rest, REFUND_FULL
            await server.appStore.deliverDueNotifications(force: true)
            #expect(try await client.wallet("bob") == ["gold": 0], "never more than the grant")
        }
    }

    @Test func aRepeatedRefundNotificationChangesNothing() async throws {
        try await TestServer.run { server, client in
            let id = try await credited("gold120", to: "carol", server: server, client: client)
            _ = try await refund(id, percentage: 25_000, client: client)
            let notification = try #require(try await server.appStore.notificationHistory().last?.signedPayload)
            await server.appStore.deliverDueNotifications(force: true)
            #expect(try await client.wallet("carol") == ["gold": 90])
            // Apple sends it again (same UUID), and the same signed transaction in a new notification.
            let again = try await client.post(
                "/v1/appstore/notifications", user: nil, json: ["signedPayload": notification])
            #expect(try again.decode(NotificationService.Outcome.self).duplicate)
            try await server.appStore.notify("REFUND", transactionID: id)
            await server.appStore.deliverDueNotifications(force: true)
            let outcome = try #require(await server.store.auditTrail(of: id).last)
            #expect(outcome.event == "revoked", "no new audit record")
            #expect(try await client.wallet("carol") == ["gold": 90])
            #expect(try await audit(id, client: client).filter { $0.event == "revoked" }.count == 1)
        }
    }

    @Test func withoutNegativeBalancesARefundStopsAtZeroAndSaysSo() async throws {
        let stopAtZero: (inout ServerConfiguration) -> Void = { $0.refunds.allowNegativeBalance = false }
        try await TestServer.run(configure: stopAtZero) { server, client in
            let id = try await credited("gold120", to: "dave", server: server, client: client)
            // Dave's balance is 20 when Apple refunds 75% of the purchase: 100 went elsewhere (a debit Purser does
            // not make itself, written straight to the ledger).
            try await server.store.write { database in
                _ = try database.query(
                    """
                    INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at)
                    VALUES (?, 'dave', 'gold', -100, 'debit', 0)
                    """, [.text(id)])
            }
            #expect(try await client.wallet("dave") == ["gold": 20])
            _ = try await refund(id, percentage: 75_000, client: client)
            await server.appStore.deliverDueNotifications(force: true)
            #expect(try await client.wallet("dave") == ["gold": 0], "stopped at zero, not -70")
            let last = try #require(try await audit(id, client: client).last)
            #expect(last.event == "revoked")
            #expect(
                last.detail
                    == "from dave gold-20 (REFUND_PRORATED: 0.000% → 75.000% of the purchase revoked); shortfall "
                    + "gold=70 not revoked: refunds.allowNegativeBalance is false, revoked down to zero")
            let notification = try #require(try await server.appStore.notificationHistory().last)
            #expect(notification.notificationType == "REFUND")

            try await server.appStore.reverseRefund(transactionID: id)
            await server.appStore.deliverDueNotifications(force: true)
            #expect(try await client.wallet("dave") == ["gold": 20], "the reversal gives back what was taken")
        }
    }

    /// The sequence a PostgreSQL chaos run met (seed 877517379: "Apple refunded 69.956%, the ledger revoked
    /// 21.997%"): a purchase without a token is recorded unbound by its notification, Apple refunds 21.997% and then
    /// 69.956% of it while it is unbound, the second refund's notification arrives first, and the app binds the
    /// purchase afterwards by its order hint, with the signed transaction it got at payment (no refund in it). The
    /// refund noted while unbound is revoked in the settlement that credits; the late, smaller refund takes nothing.
    @Test func aRefundOfAnUnboundPurchaseIsRevokedWhenTheAppBindsIt() async throws {
        try await TestServer.run { server, client in
            let order = try await server.order("gold60", for: "erin", client: client)
            let (id, jws) = try await server.pay("gold60", token: nil)
            #expect(await server.appStore.deliverDueNotifications(force: true) == 1)  // ONE_TIME_CHARGE: unbound
            #expect(try await server.store.transaction(id)?.state == .unbound)
            await server.appStore.pauseNotifications(true)
            _ = try await refund(id, percentage: 21_997, client: client)
            _ = try await refund(id, percentage: 47_959, client: client)  // 69.956% refunded in all
            let queued = try await server.appStore.notificationHistory().suffix(2)
            for sent in queued.reversed() {  // the later refund's notification arrives first
                let response = try await client.post(
                    "/v1/appstore/notifications", user: nil, json: ["signedPayload": sent.signedPayload])
                #expect(response.status == .ok)
            }
            #expect(try await server.store.transaction(id)?.state == .unbound)
            let answer = try await client.submit(jws, user: "erin", orderId: order.orderId.description)
            #expect(try answer.decode(DecisionResponse.self).decision == "delivered")
            #expect(try await client.wallet("erin") == ["gold": 19], "60 − floor(60 × 0.69956) = 60 − 41")
            let record = try #require(try await server.store.transaction(id))
            #expect(record.state == .revoked && record.transaction.revocationPercentage == 69_956)
            #expect(
                try await audit(id, client: client).map(\.event)
                    == ["recorded_unbound", "refund_noted", "credited", "revoked"])
        }
    }
}
