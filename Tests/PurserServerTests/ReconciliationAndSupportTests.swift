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

/// Without the client: reconciliation through the App Store Server API, consumption answers, and support make-goods.
@Suite struct ReconciliationAndSupportTests {
    @Test func reconciliationCreditsWhatLostNotificationsMissedAndIsIdempotent() async throws {
        try await TestServer.run { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let (id, _) = try await server.pay("gold60", token: order.appAccountToken)
            await server.appStore.pauseNotifications(true)  // the device is gone and Apple's message never arrives
            #expect(await server.appStore.deliverDueNotifications(force: true) == 0)
            #expect(try await client.wallet("alice") == [:])

            let first = try await server.reconciler.run()
            #expect(first.notificationsReplayed == 1)
            #expect(first.scanned >= 1, "alice's transaction history is walked from her known transaction")
            #expect(try await client.wallet("alice") == ["gold": 60])
            #expect(try await server.store.transaction(id)?.ownerID == "alice")

            let again = try await server.reconciler.run()
            #expect(again.notificationsReplayed == 0)
            #expect(again.credited == 0)
            #expect(again.scanned == 0, "the next run resumes at the revision the last one saved")
            #expect(try await client.wallet("alice") == ["gold": 60])
            #expect(try await server.store.statistics().grants == 1)

            // A refund whose notification is lost too: the next run takes the grant back, once.
            _ = try await server.appStore.refund(transactionID: id)
            let afterRefund = try await server.reconciler.run()
            #expect(afterRefund.revoked + afterRefund.notificationsReplayed >= 1)
            #expect(try await client.wallet("alice") == ["gold": 0])
            _ = try await server.reconciler.run()
            #expect(try await client.wallet("alice") == ["gold": 0])
        }
    }

    @Test func twoAccountsOnOneAppleIDShareOneHistoryWalk() async throws {
        try await TestServer.run { server, client in
            await server.appStore.pauseNotifications(true)
            var missed: [String: String] = [:]
            for user in ["alice", "bob"] {
                let order = try await server.order("gold60", for: user, client: client)
                let (_, jws) = try await server.pay("gold60", token: order.appAccountToken, device: "family-ipad")
                _ = try await client.submit(jws, user: user)
                let lost = try await server.order("gold60", for: user, client: client)
                missed[user] = try await server.pay("gold60", token: lost.appAccountToken, device: "family-ipad").id
            }
            // Notification History ends at the run's start; keep the last notification clear of that millisecond.
            try await Task.sleep(for: .milliseconds(5))
            let first = try await server.reconciler.run()
            #expect(first.scanned == 4, "the iPad's four transactions are walked once, not once per account")
            #expect(first.notificationsReplayed == 4, "Apple's four held-back notifications, the two missed among them")
            #expect(first.credited == 0, "the notifications credited the missed two before the history walk")
            for (user, id) in missed {
                #expect(try await server.store.transaction(id)?.ownerID == UserID(user))
                #expect(try await client.wallet(user) == ["gold": 120])
            }
            let again = try await server.reconciler.run()
            #expect(again.scanned == 0, "both accounts resume at the shared history's revision")
        }
    }

    @Test func eachOfSeveralSharedHistoriesIsWalkedOnce() async throws {
        try await TestServer.run { server, client in
            await server.appStore.pauseNotifications(true)
            var missed: [String: String] = [:]
            // Five family devices (five Apple IDs), two accounts on each: more Apple IDs than are walked at a time.
            for device in 0..<5 {
                for user in ["parent-\(device)", "child-\(device)"] {
                    let order = try await server.order("gold60", for: user, client: client)
                    let paid = try await server.pay("gold60", token: order.appAccountToken, device: "family-\(device)")
                    _ = try await client.submit(paid.jws, user: user)
                    let lost = try await server.order("gold60", for: user, client: client)
                    let unpaid = try await server.pay("gold60", token: lost.appAccountToken, device: "family-\(device)")
                    missed[user] = unpaid.id
                }
            }
            try await Task.sleep(for: .milliseconds(5))
            let first = try await server.reconciler.run()
            #expect(first.scanned == 20, "each device's four transactions are walked once, not once per account")
            for (user, id) in missed {
                #expect(try await server.store.transaction(id)?.ownerID == UserID(user))
                #expect(try await client.wallet(user) == ["gold": 120])
            }
            #expect(try await server.reconciler.run().scanned == 0, "every account resumes at its history's revision")
        }
    }

    @Test func aCustomerWhoBuysAgainIsWalkedFromTheLastRevision() async throws {
        try await TestServer.run { server, client in
            func buy(on device: String) async throws -> String {
                let order = try await server.order("gold60", for: "alice", client: client)
                let (id, jws) = try await server.pay("gold60", token: order.appAccountToken, device: device)
                _ = try await client.submit(jws, user: "alice")
                return id
            }
            await server.appStore.pauseNotifications(true)
            for _ in 0..<3 { _ = try await buy(on: "phone") }
            #expect(try await server.reconciler.run().scanned == 3, "the first run walks alice's history whole")
            for _ in 0..<2 {
                _ = try await buy(on: "phone")
                // Her latest transaction is new at every run: the history is read from where the last run stopped.
                #expect(try await server.reconciler.run().scanned == 1, "only the purchase since the last run")
            }
            // A purchase under another Apple ID (a new device), and one there that Purser never heard of.
            _ = try await buy(on: "tablet")
            let order = try await server.order("gold60", for: "alice", client: client)
            let lost = try await server.pay("gold60", token: order.appAccountToken, device: "tablet").id
            try await Task.sleep(for: .milliseconds(5))
            let switched = try await server.reconciler.run()
            #expect(switched.scanned == 2, "the phone's history has nothing new; the tablet's is walked whole")
            #expect(try await server.store.transaction(lost)?.ownerID == "alice")
            #expect(try await client.wallet("alice") == ["gold": 420])
            #expect(try await server.reconciler.run().scanned == 0)
        }
    }

    @Test func aRunAfterTheFirstReadsOnlyTheNotificationsThatFailedToArrive() async throws {
        try await TestServer.run { server, client in
            func buy() async throws {
                let order = try await server.order("gold60", for: "alice", client: client)
                _ = try await server.pay("gold60", token: order.appAccountToken, device: "phone")
            }
            for _ in 0..<2 { try await buy() }
            #expect(await server.appStore.deliverDueNotifications(force: true) == 2)
            let first = try await server.reconciler.run()
            #expect(await server.serverAPI.notificationsListed == 2, "the first run reads every notification sent")
            #expect(first.notificationsReplayed == 0)

            try await buy()
            #expect(await server.appStore.deliverDueNotifications(force: true) == 1)
            await server.appStore.pauseNotifications(true)  // Apple's next message does not get through
            try await buy()
            try await Task.sleep(for: .milliseconds(5))
            let second = try await server.reconciler.run()
            #expect(
                await server.serverAPI.notificationsListed == 3,
                "the next run reads only the one that failed, not the one that arrived")
            #expect(second.notificationsReplayed == 1)
            #expect(try await client.wallet("alice") == ["gold": 240])
        }
    }

    @Test func anAccountWhoseHistoryAppleDoesNotKnowIsSkippedAndTheOthersAreReconciled() async throws {
        try await TestServer.run { server, client in
            // A credit of a transaction Apple has no record of (written into the ledger directly): "aaron" comes
            // first among the accounts, and his history cannot be read.
            let unknown = try await server.order("gold60", for: "aaron", client: client)
            _ = try await server.store.settle(
                Submission(
                    transaction: AppleTransaction(
                        transactionID: "1999999999999999", originalTransactionID: "1999999999999999",
                        bundleID: TestServer.bundleID, productID: "gold60", type: "Consumable", quantity: 1,
                        purchaseDate: Date(), appAccountToken: unknown.orderId, environment: .sandbox),
                    assessment: .creditable(
                        ProductDefinition(id: "gold60", type: .consumable, grants: Grants(["gold": 60]))),
                    source: .client("aaron")), now: Date())
            for _ in 0..<2 {
                let order = try await server.order("gold60", for: "alice", client: client)
                let (_, jws) = try await server.pay("gold60", token: order.appAccountToken, device: "phone")
                _ = try await client.submit(jws, user: "alice")
            }
            let summary = try await server.reconciler.run()
            #expect(summary.historiesNotFound == 1, "\(summary)")
            #expect(summary.scanned == 2, "alice's history is walked after aaron's was not found: \(summary)")
            #expect(summary.description.hasSuffix(", histories Apple does not know 1"))
            let stored = try #require(try await Reconciler.lastRun(in: server.store))
            #expect(stored.summary == summary)
            // A summary an earlier release stored, before the count existed, still reads (the console's last run).
            let earlier = try JSONDecoder().decode(
                Reconciler.Summary.self,
                from: Data(
                    #"{"notificationsReplayed":1,"scanned":2,"credited":0,"revoked":0,"unbound":0,"alreadyKnown":2}"#
                        .utf8))
            #expect(earlier.scanned == 2 && earlier.historiesNotFound == 0)
        }
    }

    @Test func aConsumptionRequestIsAnsweredFromTheLedger() async throws {
        try await TestServer.run { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let (id, jws) = try await server.pay("gold60", token: order.appAccountToken)
            _ = try await client.submit(jws, user: "alice")
            try await server.appStore.notify("CONSUMPTION_REQUEST", transactionID: id)
            await server.appStore.deliverDueNotifications(force: true)
            let answer = try #require(await server.serverAPI.consumptionInformationV2(transactionID: id))
            #expect(answer.deliveryStatus == .delivered)
            #expect(answer.customerConsented)
        }
    }

    @Test func supportFindsAnOrderAndGrantsAnUnboundTransactionOnce() async throws {
        try await TestServer.run { server, client in
            // Paid without an order token; the device never came back; the notification left it unbound.
            let (id, _) = try await server.pay("gold120", token: nil)
            await server.appStore.deliverDueNotifications(force: true)
            #expect(try await server.store.transaction(id)?.state == .unbound)
            let appleOrder = try #require(
                await server.appStore.purchases().first { $0.transaction.transactionId == id }?.appleOrderId)

            var headers: HTTPFields = [.authorization: "Bearer \(TestServer.adminToken)"]
            headers[HTTPField.Name("X-Purser-Operator")!] = "sam"
            let lookup = try await client.execute(uri: "/admin/v1/orders/\(appleOrder)", method: .get, headers: headers)
            #expect(lookup.status == .ok)
            let found = try lookup.decode([String: [SupportService.TransactionView]].self)["transactions"] ?? []
            #expect(found.map(\.transactionId) == [id])
            #expect(found.first?.ledger == "unbound")

            headers[.contentType] = "application/json"
            let blank = ByteBuffer(string: #"{"transactionId": "\#(id)", "userId": "alice", "reason": "  "}"#)
            let unexplained = try await client.execute(
                uri: "/admin/v1/grants", method: .post, headers: headers,
                body: blank)
            #expect(unexplained.status == .badRequest)
            #expect(unexplained.errorCode == "reason_required")
            #expect(try await client.wallet("alice") == [:])
            let body = ByteBuffer(
                string: #"{"transactionId": "\#(id)", "userId": "alice", "reason": "ticket 4711: paid, got nothing"}"#)
            let granted = try await client.execute(uri: "/admin/v1/grants", method: .post, headers: headers, body: body)
            #expect(granted.status == .ok)
            #expect(try granted.decode(SupportService.TransactionView.self).ownerId == "alice")
            #expect(try await client.wallet("alice") == ["gold": 120])
            let audit = try await server.store.auditTrail(of: id)
            #expect(audit.last?.event == "credited")
            #expect(audit.last?.cause.contains("support by sam") == true)
            #expect(audit.last?.cause.contains("ticket 4711") == true)

            // Granting again, or to someone else, credits nothing more.
            let again = ByteBuffer(
                string: #"{"transactionId": "\#(id)", "userId": "bob", "reason": "duplicate ticket"}"#)
            _ = try await client.execute(uri: "/admin/v1/grants", method: .post, headers: headers, body: again)
            #expect(try await client.wallet("alice") == ["gold": 120])
            #expect(try await client.wallet("bob") == [:])

            let refused = try await client.execute(
                uri: "/admin/v1/orders/\(appleOrder)", method: .get,
                headers: [.authorization: "Bearer wrong"])
            #expect(refused.status == .unauthorized)
        }
    }
}
