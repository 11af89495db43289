import AppStoreSimulator
import AppStoreVerification
import Foundation
import Purser
import PurserChaos
import PurserCore
import PurserStorage
import Testing

/// The client-side failures where the app dies, is relaunched or reinstalled, on a simulated device against
/// a live server, through both StoreKit adapters. Each checks: credited exactly once, to the right account, finished
/// only after the decision.
@Suite("Client-side failures: crashes, relaunches and reinstalls")
struct ClientCrashTests {
    @Test("crash after payment, before submit: the next launch delivers", arguments: StoreKitGeneration.allCases)
    func crashAfterPayment(_ generation: StoreKitGeneration) async throws {
        try await SimulatedApp.run(generation) { app, server in
            let id = try await app.payThenCrash(user: "alice")
            #expect(try await server.balance("alice") == 0)
            #expect(try await server.store.transaction(id) == nil, "nothing was submitted before the crash")

            let second = try await app.launch(user: "alice")
            #expect(await second.event(for: id)?.isRedelivered == true)
            #expect(try await server.balance("alice") == 60)
            await app.expectFinishedOnce(id)
            #expect(await second.journal.all.first?.state == .finished)
        }
    }

    @Test(
        "crash after the server credited, before finish: redelivered, not credited twice",
        arguments: StoreKitGeneration.allCases)
    func crashAfterCredit(_ generation: StoreKitGeneration) async throws {
        try await SimulatedApp.run(generation) { app, server in
            let first = try await app.launch(user: "alice", crashAt: .decided)
            await #expect(throws: PurchaseError.terminated) { try await first.buy("gold60") }
            let id = try #require(app.device.unfinishedTransactionIDs.first)
            #expect(try await server.balance("alice") == 60)

            let second = try await app.launch(user: "alice")
            #expect(await second.event(for: id)?.isRedelivered == true)
            await app.expectFinishedOnce(id)
            #expect(try await server.balance("alice") == 60)
        }
    }

    @Test("nil applicationUsername: the journal finds the order", arguments: StoreKitGeneration.allCases)
    func nilApplicationUsername(_ generation: StoreKitGeneration) async throws {
        try await SimulatedApp.run(generation, configuration: .init(lostApplicationUsername: .everywhere(rate: 1))) {
            app, server in
            let id = try await app.payThenCrash(user: "alice")
            let orderID = try #require(await app.launchJournal().all.first?.id)
            #expect(try await server.appStore.transaction(id).transaction.appAccountToken == nil)

            let second = try await app.launch(user: "alice")
            #expect(await second.event(for: id)?.isRedelivered == true)
            #expect(try await server.balance("alice") == 60)
            #expect(try await server.store.order(orderID)?.state == .delivered)
            await app.expectFinishedOnce(id)
        }
    }

    @Test(
        "StoreKit 1: charged after the app died, redelivered without applicationUsername: the journal finds the order")
    func usernameLostOnRedelivery() async throws {
        try await SimulatedApp.run(
            .storeKit1, configuration: .init(applicationUsernameLostOnRedelivery: 1),
            purchasingTimeout: .milliseconds(200)
        ) { app, server in
            app.device.queueOutcomes([.payWhenReleased])
            let first = try await app.launch(user: "alice")
            let answer = try await first.buy("gold60")
            #expect(answer.pendingReason == .storeBusy)
            let orderID = try #require(answer.orderID)
            await first.kill()
            app.device.releaseHeldSheet()
            #expect(await eventually { app.device.unfinishedTransactionIDs.count == 1 }, "Apple charged the dead app")
            let id = try #require(app.device.unfinishedTransactionIDs.first)
            #expect(try await app.launchJournal().entry(orderID)?.transactionID == nil, "the journal never saw it")

            let second = try await app.launch(user: "alice")
            #expect(await second.event(for: id)?.isRedelivered == true)
            #expect(await second.journal.entry(orderID)?.state == .finished, "matched by product and user")
            #expect(try await server.store.order(orderID)?.state == .delivered)
            #expect(try await server.balance("alice") == 60)
            await app.expectFinishedOnce(id)
        }
    }

    @Test(
        "user A buys, the app is killed, user B signs in: A is credited, B is told",
        arguments: StoreKitGeneration.allCases)
    func accountSwitch(_ generation: StoreKitGeneration) async throws {
        try await SimulatedApp.run(generation) { app, server in
            let id = try await app.payThenCrash(user: "alice")

            let second = try await app.launch(user: "bob")
            #expect(await second.event(for: id)?.isOtherAccount == true)
            await app.expectFinishedOnce(id)
            #expect(try await server.balance("alice") == 60)
            #expect(try await server.balance("bob") == 0)
            #expect(try await server.store.transaction(id)?.ownerID == UserID("alice"))
        }
    }

    @Test(
        "uninstall and reinstall, journal kept or lost: Apple's token still names the order",
        arguments: StoreKitGeneration.allCases, [JournalLocation.keychain, .container])
    func reinstall(_ generation: StoreKitGeneration, journal: JournalLocation) async throws {
        try await SimulatedApp.run(generation, journal: journal) { app, server in
            let id = try await app.payThenCrash(user: "alice")
            app.device.uninstall()
            #expect(!FileManager.default.fileExists(atPath: app.device.receiptURL.path))

            let second = try await app.launch(user: "alice")
            #expect(await second.journal.all.isEmpty == (journal == .container))
            #expect(await second.event(for: id)?.isRedelivered == true)
            #expect(try await server.balance("alice") == 60)
            await app.expectFinishedOnce(id)
        }
    }

    @Test(
        "uninstall without token: a Keychain journal still credits; without it the purchase waits, unbound",
        arguments: StoreKitGeneration.allCases, [JournalLocation.keychain, .container])
    func reinstallWithoutToken(_ generation: StoreKitGeneration, journal: JournalLocation) async throws {
        try await SimulatedApp.run(
            generation, journal: journal,
            configuration: .init(lostApplicationUsername: .everywhere(rate: 1))
        ) { app, server in
            let id = try await app.payThenCrash(user: "alice")
            app.device.uninstall()

            let second = try await app.launch(user: "alice")
            let event = await second.event(for: id)
            switch journal {
            case .keychain:
                #expect(event?.isRedelivered == true)
                #expect(try await server.balance("alice") == 60)
                await app.expectFinishedOnce(id)
            case .container:
                // Nothing ties the purchase to an account any more: recorded, credited to nobody, kept unfinished
                // for support or reconciliation; never guessed.
                #expect(event?.pendingReason == .server("unbound"))
                #expect(try await server.store.transaction(id)?.state == .unbound)
                #expect(try await server.balance("alice") == 0)
                #expect(app.device.finishCount(of: id) == 0)
                #expect(app.device.unfinishedTransactionIDs == [id])
            }
        }
    }

    @Test(
        "re-buy of a product whose purchase is unfinished: the old one is settled first, never a bare purchasing",
        arguments: StoreKitGeneration.allCases)
    func rebuyUnfinished(_ generation: StoreKitGeneration) async throws {
        try await SimulatedApp.run(generation) { app, server in
            let old = try await app.payThenCrash(user: "alice")

            server.network.inject(Array(repeating: .unreachable, count: 4))
            let second = try await app.launch(user: "alice")
            #expect(await second.event(for: old)?.pendingReason == .serverUnreachable)
            #expect(app.device.unfinishedTransactionIDs == [old])

            let event = try await second.buy("gold60")
            #expect(event.isDelivered)
            #expect(event.transactionID != old)
            #expect(try await server.balance("alice") == 120)
            await app.expectFinishedOnce(old)
            await app.expectFinishedOnce(try #require(event.transactionID))
        }
    }

    @Test(
        "re-buy while the old purchase cannot be settled: a clear error, nothing charged",
        arguments: StoreKitGeneration.allCases)
    func rebuyWhileServerDown(_ generation: StoreKitGeneration) async throws {
        try await SimulatedApp.run(generation) { app, server in
            _ = try await app.payThenCrash(user: "alice")
            server.network.inject(Array(repeating: .unreachable, count: 8))
            let second = try await app.launch(user: "alice")
            await #expect(throws: PurchaseError.earlierPurchaseUnfinished) { try await second.buy("gold60") }
            #expect(await server.appStore.purchases().count == 1, "the second payment was never made")
        }
    }
}
