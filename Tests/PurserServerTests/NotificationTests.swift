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

/// App Store Server Notifications V2, sent by the simulator to the server over live HTTP.
@Suite struct NotificationTests {
    func post(_ client: some TestClientProtocol, _ signedPayload: String) async throws -> TestResponse {
        try await client.post("/v1/appstore/notifications", user: nil, json: ["signedPayload": signedPayload])
    }

    @Test func aDeviceThatNeverReturnsIsCreditedByONE_TIME_CHARGEAlone() async throws {
        try await TestServer.run { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let (id, _) = try await server.pay("gold60", token: order.appAccountToken)
            #expect(await server.appStore.deliverDueNotifications(force: true) == 1)
            #expect(try await client.wallet("alice") == ["gold": 60])
            #expect(try await server.store.auditTrail(of: id).first?.cause.hasPrefix("notification") == true)
            #expect(
                try await client.get("/v1/orders/\(order.orderId)", user: "alice").decode(OrderResponse.self).state
                    == .delivered)
            // The app comes back after all: nothing new.
            let (_, jws) = try await server.appStore.transaction(id)
            #expect(
                try await client.submit(jws, user: "alice").decode(DecisionResponse.self).decision == "alreadyDelivered"
            )
            #expect(try await client.wallet("alice") == ["gold": 60])
        }
    }

    @Test func theSameNotificationThreeTimesCreditsOnce() async throws {
        try await TestServer.run { server, client in
            let order = try await server.order("gold120", for: "alice", client: client)
            _ = try await server.pay("gold120", token: order.appAccountToken)
            let payload = try #require(try await server.appStore.notificationHistory().first?.signedPayload)
            var outcomes: [NotificationService.Outcome] = []
            for _ in 0..<3 {
                let response = try await post(client, payload)
                #expect(response.status == .ok)
                outcomes.append(try response.decode(NotificationService.Outcome.self))
            }
            #expect(outcomes.map(\.duplicate) == [false, true, true])
            #expect(try await client.wallet("alice") == ["gold": 120])
            #expect(try await server.store.statistics().grants == 1)
        }
    }

    @Test func aClientRacingTheNotificationIsCreditedOnce() async throws {
        try await TestServer.run { server, client in
            for round in 0..<5 {
                let order = try await server.order("gold60", for: "alice", client: client)
                let (_, jws) = try await server.pay("gold60", token: order.appAccountToken)
                async let delivered = server.appStore.deliverDueNotifications(force: true)
                async let submitted = client.submit(jws, user: "alice")
                let decision = try await submitted.decode(DecisionResponse.self)
                _ = await delivered
                #expect(["delivered", "alreadyDelivered"].contains(decision.decision))
                #expect(decision.finish)
                #expect(try await client.wallet("alice") == ["gold": Int64(60 * (round + 1))])
            }
            #expect(try await server.store.statistics().grants == 5)
        }
    }

    @Test func aRefundAfterCreditIsRevokedOnceAndAReversalRestoresIt() async throws {
        try await TestServer.run { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let (id, jws) = try await server.pay("gold60", token: order.appAccountToken)
            _ = try await client.submit(jws, user: "alice")
            await server.appStore.deliverDueNotifications(force: true)
            #expect(try await client.wallet("alice") == ["gold": 60])

            let refund = try await server.appStore.refund(transactionID: id)
            #expect(await server.appStore.deliverDueNotifications(force: true) == 1)
            _ = try await post(client, refund.notification)  // Apple delivers it again
            #expect(try await client.wallet("alice") == ["gold": 0])
            #expect(try await server.store.transaction(id)?.state == .revoked)
            #expect(try await server.store.auditTrail(of: id).map(\.event) == ["credited", "revoked"])
            // Submitting the revoked transaction again credits nothing.
            #expect(
                try await client.submit(refund.signed, user: "alice").decode(DecisionResponse.self).decision
                    == "revoked")

            try await server.appStore.reverseRefund(transactionID: id)
            await server.appStore.deliverDueNotifications(force: true)
            #expect(try await client.wallet("alice") == ["gold": 60])
            #expect(try await server.store.auditTrail(of: id).map(\.event) == ["credited", "revoked", "restored"])
        }
    }

    @Test func aForgedNotificationIsRefusedAndRecordsNothing() async throws {
        try await TestServer.run { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            _ = try await server.pay("gold60", token: order.appAccountToken)
            let genuine = try #require(try await server.appStore.notificationHistory().first?.signedPayload)
            var parts = genuine.split(separator: ".").map(String.init)
            parts[2] = String(parts[2].reversed())
            let forged = try await post(client, parts.joined(separator: "."))
            #expect((400..<500).contains(forged.status.code))
            #expect(forged.errorCode == "bad_signature" || forged.errorCode == "malformed")
            let foreign = try SimulatorCertificateAuthority.generate(validity: .standard(now: Date()))
            let foreignStore = try SimulatedAppStore(
                signer: JWSSigner(authority: foreign),
                configuration: .init(defaultBundleID: TestServer.bundleID))
            _ = try await foreignStore.purchase(.init(productId: "gold60", appAccountToken: order.appAccountToken))
            let untrusted = try await post(
                client, try #require(try await foreignStore.notificationHistory().first?.signedPayload))
            #expect(untrusted.errorCode == "untrusted_chain")
            #expect(try await post(client, "not a jws").status == .badRequest)
            let statistics = try await server.store.statistics()
            #expect(statistics.transactions == 0 && statistics.grants == 0)
            #expect(try await client.wallet("alice") == [:])
        }
    }

    @Test func applesSenderSendsEachNotificationOnceEvenWhenTwoDeliveriesOverlap() async throws {
        try await TestServer.run { server, client in
            for user in ["alice", "bob", "carol"] {
                for _ in 0..<20 {
                    let order = try await server.order("gold60", for: user, client: client)
                    _ = try await server.pay("gold60", token: order.appAccountToken)
                }
            }
            async let first = server.appStore.deliverDueNotifications(force: true, concurrency: 4)
            async let second = server.appStore.deliverDueNotifications(force: true, concurrency: 4)
            let delivered = await first + second
            #expect(delivered == 60)
            let attempts = try await server.appStore.notificationHistory().map(\.attempts.count)
            #expect(attempts == Array(repeating: 1, count: 60), "no notification was sent twice")
            for user in ["alice", "bob", "carol"] { #expect(try await client.wallet(user) == ["gold": 1200]) }
        }
    }

    @Test func aLostNotificationIsRetriedOnAppleSchedule() async throws {
        try await TestServer.run { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            _ = try await server.pay("gold60", token: order.appAccountToken)
            await server.appStore.loseNotifications(1)
            #expect(await server.appStore.deliverDueNotifications() == 0)
            let pending = try #require(try await server.appStore.notificationHistory().first)
            #expect(pending.attempts == [0])
            #expect(pending.nextAttemptAt != nil)
            #expect(try await client.wallet("alice") == [:])
            #expect(await server.appStore.deliverDueNotifications(force: true) == 1)
            #expect(try await client.wallet("alice") == ["gold": 60])
        }
    }
}
