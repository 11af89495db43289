import AppStoreSimulator
import AppStoreVerification
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import PurserServer
import PurserStorage
import Synchronization
import Testing

/// What the server tells Apple after a credit, over live HTTP to the simulator's App Store Server API: Finish
/// Transaction for credits no app will finish, Set App Account Token for binds Apple's record does not name, and
/// Apple's `appTransactionId` stored and found by support.
@Suite struct AppleFollowUpTests {
    /// A clock the test moves.
    final class Clock: Sendable {
        private let offset = Mutex<TimeInterval>(0)
        var now: Date { Date().addingTimeInterval(offset.withLock { $0 }) }
        func advance(_ seconds: TimeInterval) { offset.withLock { $0 += seconds } }
    }

    /// Runs `body` with a simulated phone paying through the server's simulator.
    func withDevice(_ server: TestServer, _ body: (SimulatedDevice) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-phone-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let device = SimulatedDevice(
            id: "phone-\(UUID().uuidString.prefix(8))", store: server.appStore,
            products: [DeviceProduct(id: "gold60", displayName: "60 Gold", price: 0.99)], directory: directory)
        try await body(device)
    }

    /// Apple's current record of `id`, read back with Get Transaction Info and verified.
    func applesRecord(_ id: String, _ server: TestServer) async throws -> JWSTransaction {
        let info = try await server.apiClient.getTransactionInfo(transactionID: id)
        return try await SignedDataVerifier(configuration: .init(trustedRoots: [server.authority.root]))
            .verifyTransaction(info.signedTransactionInfo)
    }

    @Test func aNotificationCreditIsFinishedAtAppleByTheServer() async throws {
        try await TestServer.run { server, client in
            try await withDevice(server) { device in
                let order = try await server.order("gold60", for: "alice", client: client)
                let app = device.launch()
                guard
                    case .purchased(let entry) = await device.purchase(
                        app, productID: "gold60", quantity: 1, appAccountToken: UUID(uuidString: order.appAccountToken))
                else { throw CancellationError() }
                let id = try #require(entry.transactionID)
                device.kill()
                #expect(device.unfinishedTransactionIDs == [id])
                #expect(try await server.appStore.receipt(deviceId: device.id).transactionIDs == [id])

                #expect(await server.appStore.deliverDueNotifications(force: true) == 1)
                #expect(try await client.wallet("alice") == ["gold": 60])
                #expect(await server.appStore.purchase(transactionID: id)?.finished == true)
                #expect(try await server.store.transaction(id)?.finishedAtApple != nil)
                #expect(device.unfinishedTransactionIDs.isEmpty)
                #expect(device.finishCount(of: id) == 0)
                #expect(try await server.appStore.receipt(deviceId: device.id).transactionIDs.isEmpty)

                // A copy the app kept is still answered as delivered, and nothing is owed any more.
                let again = try await client.submit(try #require(entry.signedTransaction), user: "alice")
                #expect(try again.decode(DecisionResponse.self).decision == "alreadyDelivered")
                #expect(try await #require(server.followUps).run() == AppleFollowUps.Summary())
            }
        }
    }

    @Test func aSupportGrantWritesTheAccountsTokenToApplesRecord() async throws {
        try await TestServer.run { server, client in
            let (id, _) = try await server.pay("gold60", token: nil)
            #expect(await server.appStore.deliverDueNotifications(force: true) == 1)
            #expect(try await server.store.transaction(id)?.state == .unbound)
            #expect(await server.appStore.purchase(transactionID: id)?.finished == false)

            let body = #"{"transactionId": "\#(id)", "userId": "alice", "reason": "ticket 7"}"#
            #expect(try await client.admin(.post, "/admin/v1/grants", body: body).status == .ok)
            let record = try await applesRecord(id, server)
            #expect(record.appAccountToken == OrderID.accountToken(for: "alice").description)
            #expect(await server.appStore.purchase(transactionID: id)?.finished == true)
            #expect(try await #require(server.followUps).run() == AppleFollowUps.Summary())
        }
    }

    @Test func anOrderHintBindIsWrittenLaterAndTheAppsCreditFinishedAfterTheGrace() async throws {
        let clock = Clock()
        let configure: (inout ServerConfiguration) -> Void = { $0.finishing.afterSeconds = 3600 }
        let now: @Sendable () -> Date = { clock.now }
        try await TestServer.run(configure: configure, now: now) { server, client in
            let followUps = try #require(server.followUps)
            let order = try await server.order("gold60", for: "bob", client: client)
            let (id, jws) = try await server.pay("gold60", token: nil)
            let decision = try await client.submit(jws, user: "bob", orderId: order.orderId.description)
            #expect(try decision.decode(DecisionResponse.self).decision == "delivered")
            // The app's request did not wait for Apple: the token is written by the periodic job.
            #expect(try await applesRecord(id, server).appAccountToken == nil)
            #expect(try await followUps.run() == AppleFollowUps.Summary(tokensWritten: 1))
            #expect(try await applesRecord(id, server).appAccountToken == order.orderId.description)
            #expect(await server.appStore.purchase(transactionID: id)?.finished == false)

            clock.advance(3601)
            #expect(try await followUps.run() == AppleFollowUps.Summary(finished: 1))
            #expect(await server.appStore.purchase(transactionID: id)?.finished == true)
            #expect(try await followUps.run() == AppleFollowUps.Summary())
        }
    }

    @Test func appleUnavailableLeavesTheFinishOwedUntilTheNextRun() async throws {
        try await TestServer.run { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            let (id, _) = try await server.pay("gold60", token: order.appAccountToken)
            await server.serverAPI.injectFaults(Array(repeating: ServerAPIFault(status: 503), count: 12))
            #expect(await server.appStore.deliverDueNotifications(force: true) == 1)
            #expect(try await client.wallet("alice") == ["gold": 60])
            #expect(await server.appStore.purchase(transactionID: id)?.finished == false)
            #expect(try await server.store.transaction(id)?.finishedAtApple == nil)

            var summary = try await #require(server.followUps).run()
            while summary.deferred > 0 { summary = try await #require(server.followUps).run() }
            #expect(summary.finished == 1)
            #expect(await server.appStore.purchase(transactionID: id)?.finished == true)
        }
    }

    @Test func supportFindsAnAppleAccountsPurchasesByAppTransactionID() async throws {
        try await TestServer.run { server, client in
            var ids: [String] = []
            for device in ["phone-a", "phone-a", "phone-b"] {
                let order = try await server.order("gold60", for: "carol", client: client)
                let (id, jws) = try await server.pay("gold60", token: order.appAccountToken, device: device)
                _ = try await client.submit(jws, user: "carol")
                ids.append(id)
            }
            let account = SimulatedAppStore.appTransactionID(deviceId: "phone-a", bundleId: TestServer.bundleID)
            #expect(try await server.store.transaction(ids[0])?.transaction.appTransactionID == account)

            struct Listing: Decodable { var transactions: [SupportService.TransactionView] }
            let found = try await client.admin(.get, "/admin/v1/app-transactions/\(account)")
            #expect(found.status == .ok)
            let views = try found.decode(Listing.self).transactions
            #expect(views.map(\.transactionId) == Array(ids.prefix(2)))
            #expect(views.allSatisfy { $0.appTransactionId == account && $0.ownerId == "carol" })
            let other = SimulatedAppStore.appTransactionID(deviceId: "phone-b", bundleId: TestServer.bundleID)
            #expect(other != account)
            let single = try await client.admin(.get, "/admin/v1/app-transactions/\(other)").decode(Listing.self)
            #expect(single.transactions.map(\.transactionId) == [ids[2]])
            #expect(
                try await client.admin(.get, "/admin/v1/app-transactions/7000").decode(Listing.self).transactions
                    .isEmpty)
            #expect(try await client.admin(.get, "/admin/v1/app-transactions/70%2400").status == .badRequest)
        }
    }
}
