import Foundation
import Purser
import PurserChaos
import PurserCore
import PurserTesting
import Testing

/// `PurserTesting` as an app's own CI would use it: the app's coordinator, with `SimulatorStoreAdapter` for StoreKit,
/// buys from a live `purser serve` (`appStore: simulator`) the test starts, and each path ends as it would on a phone.
@Suite struct SimulatorStoreAdapterTests {
    let serve = ServeCommandTests()

    /// `purser serve` with the simulator inside it, as the README's first command runs it, with `environment`
    /// (settings by environment variable, as an operator sets them); its base URL.
    func startServe(in directory: URL, environment: [String: String] = [:]) async throws -> (ChildProcess, URL) {
        try #"""
        {"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}},
                      "noads": {"type": "non-consumable", "grants": {"noads": 1}}}}
        """#
        .write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
        let (server, port) = try await serve.launch(
            [
                "serve", "--port", "0", "--appstore", "simulator", "--auth", "development", "--data-dir",
                directory.appendingPathComponent("data").path, "--catalog",
                directory.appendingPathComponent("catalog.json").path, "--bundle-id", "com.example.game",
            ], environment: environment)
        return (server, URL(string: "http://127.0.0.1:\(port)")!)
    }

    func coordinator(_ base: URL, _ store: SimulatorStoreAdapter, journal directory: URL) throws -> PurchaseCoordinator
    {
        PurchaseCoordinator(
            api: PurserAPIClient(baseURL: base),
            journal: try PurchaseJournal(
                store: FileJournalStore(url: directory.appendingPathComponent("journal.json"))),
            store: store, configuration: .init(signals: .none))
    }

    @Test func buysCancelsAndSettlesAnAskToBuyApprovedWhileTheAppWasClosed() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (server, base) = try await startServe(in: directory)
        defer { server.terminate() }
        let session = PurserSession(userID: "ana", authorization: .development)
        let store = SimulatorStoreAdapter(server: base)

        let app = try coordinator(base, store, journal: directory)
        await app.start(session: session)
        guard case .delivered(let delivery) = try await app.buy("gold60") else {
            Issue.record("the paid purchase was not delivered")
            return
        }
        #expect(delivery.grants == Grants(["gold": 60]))
        #expect(await store.finishedTransactionIDs == [delivery.transactionID], "finished once the server credited")

        await store.script(.cancel, .askToBuy)
        guard case .failed(let cancelled) = try await app.buy("gold60") else {
            Issue.record("a closed payment sheet was not reported as failed")
            return
        }
        #expect(cancelled.reason == .cancelled)
        guard case .pending(let waiting) = try await app.buy("gold60") else {
            Issue.record("Ask to Buy was not pending")
            return
        }
        #expect(waiting.reason == .askToBuy)
        await app.shutdown()

        // The parent approves while the app is closed; at the next launch the paid transaction is settled.
        try await store.approveAskToBuy()
        #expect(await store.unfinishedTransactions().count == 1)
        let relaunched = try coordinator(base, store, journal: directory)
        let events = relaunched.events
        await relaunched.start(session: session)
        var iterator = events.makeAsyncIterator()
        let settled = await iterator.next()
        #expect(settled?.transactionID != nil && settled?.transactionID != delivery.transactionID)
        if case .delivered = settled {
        } else {
            Issue.record("the approved purchase was not delivered: \(String(describing: settled))")
        }
        #expect(await store.unfinishedTransactions().isEmpty)
        #expect(await store.finishedTransactionIDs.count == 2)
        let wallet = try await PurserAPIClient(baseURL: base).wallet(as: session)
        #expect(wallet.balances["gold"] == 120, "two paid purchases, each credited once")
        await relaunched.shutdown()
    }

    /// Restore Purchases with the simulator: the owned non-consumable is sent again, the server's answer is the
    /// first one (nothing credited twice), and it is finished again.
    @Test func restoresAnOwnedNonConsumableWithoutCreditingItTwice() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (server, base) = try await startServe(in: directory)
        defer { server.terminate() }
        let session = PurserSession(userID: "bo", authorization: .development)
        let store = SimulatorStoreAdapter(server: base)
        let app = try coordinator(base, store, journal: directory)
        await app.start(session: session)
        guard case .delivered(let bought) = try await app.buy("noads") else {
            Issue.record("noads was not delivered")
            return
        }
        #expect(try await app.entitlements().map(\.id) == [bought.transactionID])
        let restored = try await app.restore()
        #expect(restored.map(\.transactionID) == [bought.transactionID], "\(restored)")
        #expect(await store.finishedTransactionIDs == [bought.transactionID, bought.transactionID])
        let wallet = try await app.wallet()
        #expect(wallet.entitlements == ["noads"], "\(wallet)")
        guard case .redelivered = restored.first else {
            Issue.record("the restore was not the server's first answer again: \(restored)")
            return
        }
        await app.shutdown()
    }
}
