import AppStoreSimulator
import AppStoreVerification
import Foundation
import Purser
import PurserChaos
import PurserCore
import PurserStorage
import Testing

/// The client-side failures around the payment and the network (a lost response, an unreachable server,
/// duplicate callbacks, Ask to Buy, slow, cancelled and failed payments), on a simulated device against a live
/// server, through both StoreKit adapters. Each checks: credited exactly once, to the right account, finished only
/// after the decision.
@Suite("Client-side failures: payments and the network")
struct ClientPaymentTests {
    @Test("a purchase goes from order to finish", arguments: StoreKitGeneration.allCases)
    func happyPath(_ generation: StoreKitGeneration) async throws {
        try await SimulatedApp.run(generation) { app, server in
            let run = try await app.launch(user: "alice")
            let event = try await run.buy("gold60")
            #expect(event.isDelivered)
            let id = try #require(event.transactionID)
            #expect(try await server.balance("alice") == 60)
            #expect(try await server.store.order(#require(event.orderID))?.state == .delivered)
            await app.expectFinishedOnce(id)
            #expect(await run.journal.open.isEmpty)
        }
    }

    @Test(
        "server unreachable for several retries and a lost response: kept, then delivered once",
        arguments: StoreKitGeneration.allCases)
    func serverUnreachable(_ generation: StoreKitGeneration) async throws {
        try await SimulatedApp.run(generation) { app, server in
            let run = try await app.launch(user: "alice")
            server.network.inject([.responseLost, .unreachable, .unreachable, .unreachable])
            let event = try await run.buy("gold60")
            #expect(event.pendingReason == .serverUnreachable)
            let id = try #require(event.transactionID)
            #expect(app.device.unfinishedTransactionIDs == [id], "nothing is finished on a 5xx")
            #expect(app.device.finishCount(of: id) == 0)
            #expect(try await server.balance("alice") == 60, "the lost response's request was credited")

            await run.recover(.networkAvailable)
            #expect(await run.event { $0.transactionID == id && $0.isRedelivered } != nil)
            await app.expectFinishedOnce(id)
            #expect(try await server.balance("alice") == 60)
        }
    }

    @Test(
        "the network coming back or the app returning to the foreground settles the purchase, with no recover call",
        arguments: StoreKitGeneration.allCases, [RecoveryTrigger.networkAvailable, .foreground])
    func recoverySignal(_ generation: StoreKitGeneration, trigger: RecoveryTrigger) async throws {
        let signals = ManualRecoverySignals()
        try await SimulatedApp.run(generation, recoverySignals: signals.signals) { app, server in
            let run = try await app.launch(user: "alice")
            server.network.inject([.responseLost, .unreachable, .unreachable, .unreachable])
            let event = try await run.buy("gold60")
            #expect(event.pendingReason == .serverUnreachable)
            let id = try #require(event.transactionID)
            #expect(app.device.finishCount(of: id) == 0)

            #expect(signals.listeners == 1)
            signals.fire(trigger)
            #expect(await run.event { $0.transactionID == id && $0.isRedelivered } != nil)
            await app.expectFinishedOnce(id)
            #expect(try await server.balance("alice") == 60)
        }
    }

    @Test(
        "offline: StoreKit fails the payment as a network failure; nothing charged, entry and order closed",
        arguments: StoreKitGeneration.allCases)
    func offlinePayment(_ generation: StoreKitGeneration) async throws {
        try await SimulatedApp.run(generation) { app, server in
            let run = try await app.launch(user: "alice")
            app.device.setOffline(true)
            let event = try await run.buy("gold60")
            #expect(event.failureReason == .network)
            let orderID = try #require(event.orderID)
            #expect(await run.journal.entry(orderID)?.state == .failed)
            #expect(try await server.store.order(orderID)?.state == .cancelled)
            #expect(await server.appStore.purchases().isEmpty)
        }
    }

    @Test(
        "offline: the product list fails with StoreKit's network failure, not an empty store",
        arguments: StoreKitGeneration.allCases)
    func offlineProducts(_ generation: StoreKitGeneration) async throws {
        try await SimulatedApp.run(generation) { app, _ in
            let run = try await app.launch(user: "alice")
            app.device.setOffline(true)
            let error = await #expect(throws: ProductCatalogError.self) {
                try await run.run { try await run.coordinator.products() }
            }
            #expect(error?.code == "network")
        }
    }

    @Test("StoreKit 1: a restored purchase is submitted as the purchase it restores, credited once, finished")
    func restored() async throws {
        try await SimulatedApp.run(.storeKit1) { app, server in
            let run = try await app.launch(user: "alice")
            let bought = try await run.buy("noads")
            #expect(bought.isDelivered)
            let original = try #require(bought.transactionID)
            await app.expectFinishedOnce(original)

            let process = run.app.process
            #expect(await app.device.restoreCompletedTransactions(process) == nil)
            let restored = try #require(await run.event { $0.isRedelivered })
            let restoredID = try #require(restored.transactionID)
            #expect(restoredID != original)
            #expect(await eventually { app.device.finishCount(of: restoredID) == 1 })
            #expect(app.device.restoredTransactionIDs.isEmpty)
            #expect(try await server.balance("alice") == 1)
            #expect(try await server.store.transaction(original)?.ownerID == UserID("alice"))
        }
    }

    @Test("two unfinished consumables in one receipt: both credited once", arguments: StoreKitGeneration.allCases)
    func twoUnfinished(_ generation: StoreKitGeneration) async throws {
        try await SimulatedApp.run(generation) { app, server in
            // Both purchases are paid while the server is unreachable, so both stay unfinished.
            server.network.inject(Array(repeating: .unreachable, count: 8))
            let first = try await app.launch(user: "alice")
            #expect(try await first.buy("gold60").pendingReason == .serverUnreachable)
            #expect(try await first.buy("gold120").pendingReason == .serverUnreachable)
            await first.kill()
            let ids = app.device.unfinishedTransactionIDs
            #expect(ids.count == 2)
            if generation == .storeKit1 {
                let receipt = try await server.appStore.receipt(deviceId: app.device.id)
                #expect(Set(receipt.transactionIDs) == Set(ids), "one receipt carries both")
            }

            let second = try await app.launch(user: "alice")
            for id in ids { #expect(await second.event(for: id)?.isRedelivered == true) }
            #expect(try await server.balance("alice") == 180)
            for id in ids { await app.expectFinishedOnce(id) }
        }
    }

    @Test("duplicate callbacks: one submission, one event, one finish", arguments: StoreKitGeneration.allCases)
    func duplicateCallbacks(_ generation: StoreKitGeneration) async throws {
        try await SimulatedApp.run(generation, configuration: .init(duplicateCallbacks: true)) { app, server in
            let run = try await app.launch(user: "alice")
            let event = try await run.buy("gold60")
            #expect(event.isDelivered)
            let id = try #require(event.transactionID)
            await app.expectFinishedOnce(id)
            try await Task.sleep(for: .milliseconds(200))
            #expect(run.events.filter { $0.transactionID == id }.count == 1)
            #expect(server.network.submissionCount == 1)
            #expect(try await server.balance("alice") == 60)
        }
    }

    @Test("Ask to Buy approved a day later: delivered to the buyer", arguments: StoreKitGeneration.allCases)
    func askToBuy(_ generation: StoreKitGeneration) async throws {
        try await SimulatedApp.run(generation, configuration: .init(askToBuy: true)) { app, server in
            let run = try await app.launch(user: "alice")
            let event = try await run.buy("gold60")
            #expect(event.pendingReason == .askToBuy)
            let orderID = try #require(event.orderID)
            #expect(await run.journal.entry(orderID)?.state == .deferred)
            #expect(try await server.store.order(orderID)?.state == .created)

            server.clock.advance(by: 86_400)
            let charged = try await app.device.approveAskToBuy()
            let id = try #require(charged.first)
            #expect(await run.event(for: id)?.isDelivered == true)
            #expect(try await server.balance("alice") == 60)
            #expect(try await server.store.order(orderID)?.state == .delivered)
            await app.expectFinishedOnce(id)
        }
    }

    @Test("StoreKit 1: a payment that outlasts the app's wait is credited once when Apple charges it")
    func slowPayment() async throws {
        try await SimulatedApp.run(.storeKit1, purchasingTimeout: .milliseconds(200)) { app, server in
            app.device.queueOutcomes([.payWhenReleased])
            let run = try await app.launch(user: "alice")
            let answer = try await SimulatedDevice.$paymentLabel.withValue("tap-1") { try await run.buy("gold60") }
            #expect(answer.pendingReason == .storeBusy)
            #expect(app.device.charges.isEmpty, "buy answered before Apple charged")
            let orderID = try #require(answer.orderID)
            app.device.releaseHeldSheet()

            let delivered = try #require(await run.event { $0.isDelivered }, "\(run.events)")
            let id = try #require(delivered.transactionID)
            #expect(delivered.orderID == orderID)
            #expect(
                app.device.charges == [SimulatedDevice.Charge(transactionID: id, label: "tap-1")],
                "the late charge names the tap that paid for it")
            #expect(try await server.balance("alice") == 60)
            #expect(try await server.store.order(orderID)?.state == .delivered)
            await app.expectFinishedOnce(id)
        }
    }

    @Test("a cancel StoreKit reports as an error (StoreKit 2 throws userCancelled) closes the entry as cancelled")
    func cancelReportedAsError() async throws {
        let throwsCancel: @Sendable (any StoreAdapter) -> any StoreAdapter = { ThrowingCancelAdapter(inner: $0) }
        try await SimulatedApp.run(.storeKit2, wrapAdapter: throwsCancel) { app, server in
            let run = try await app.launch(user: "alice")
            let event = try await run.buy("gold60")
            #expect(event.failureReason == .cancelled)
            let orderID = try #require(event.orderID)
            #expect(await run.journal.entry(orderID)?.state == .cancelled)
            #expect(try await server.store.order(orderID)?.state == .cancelled)
            #expect(await server.appStore.purchases().isEmpty)
        }
    }

    @Test(
        "cancelled and failed payments close the journal entry and cancel the order",
        arguments: StoreKitGeneration.allCases)
    func cancelledAndFailed(_ generation: StoreKitGeneration) async throws {
        try await SimulatedApp.run(generation) { app, server in
            app.device.queueOutcomes([.cancel, .fail(.notAllowed)])
            let run = try await app.launch(user: "alice")
            for expected in [PurchaseFailureReason.cancelled, .notAllowed] {
                let event = try await run.buy("gold60")
                #expect(event.failureReason == expected)
                let orderID = try #require(event.orderID)
                #expect(await run.journal.entry(orderID)?.state == (expected == .cancelled ? .cancelled : .failed))
                #expect(try await server.store.order(orderID)?.state == .cancelled)
            }
            #expect(await server.appStore.purchases().isEmpty)
            #expect(app.device.unfinishedTransactionIDs.isEmpty)
        }
    }
}
