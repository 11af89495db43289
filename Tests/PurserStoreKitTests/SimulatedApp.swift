import AppStoreSimulator
import AppStoreVerification
import Foundation
import Purser
import PurserChaos
import PurserCore
import PurserStoreKit
import PurserStorage
import Testing

/// Every scenario runs with both StoreKit generations.
extension StoreKitGeneration: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}

/// Where the app keeps its journal.
enum JournalLocation: Sendable {
    /// In the app's container: gone after uninstall.
    case container
    /// Keychain-like: survives uninstall.
    case keychain
}

/// A device with the app installed, talking to a `LiveServer`. Each `launch` is a new process of the app: new
/// memory, the same journal file and the same StoreKit queue.
struct SimulatedApp: Sendable {
    let server: LiveServer
    let device: SimulatedDevice
    let generation: StoreKitGeneration
    let journalLocation: JournalLocation
    /// How long the StoreKit 1 adapter waits in `purchasing`.
    let purchasingTimeout: Duration
    /// Wraps each launch's adapter (a test's stand-in for StoreKit behaviour the simulator does not produce).
    let wrapAdapter: @Sendable (any StoreAdapter) -> any StoreAdapter
    /// Finishes that happened before the server had a decision (must stay empty: invariant 5).
    let earlyFinishes = LockedValue<[String]>([])

    init(server: LiveServer, generation: StoreKitGeneration, journal: JournalLocation = .container,
         configuration: SimulatedDevice.Configuration = .init(), purchasingTimeout: Duration = .seconds(3),
         wrapAdapter: @escaping @Sendable (any StoreAdapter) -> any StoreAdapter = { $0 }) {
        self.wrapAdapter = wrapAdapter
        self.server = server
        self.generation = generation
        self.journalLocation = journal
        self.purchasingTimeout = purchasingTimeout
        let device = SimulatedDevice(
            id: "device-\(UUID().uuidString.prefix(8))", store: server.appStore, products: ChaosServer.deviceProducts,
            directory: server.directory.appendingPathComponent("devices/\(UUID())"), configuration: configuration)
        self.device = device
        let store = server.store
        let early = earlyFinishes
        device.onFinish { transactionID in
            let recorded = try? await store.transaction(transactionID)
            if recorded == nil || recorded?.state == .unbound { early.withLock { $0.append(transactionID) } }
        }
    }

    /// The journal as it is on disk now (read without launching the app).
    func launchJournal() throws -> PurchaseJournal {
        try PurchaseJournal(store: FileJournalStore(url: journalURL), now: { server.clock.now() })
    }

    private var journalURL: URL {
        let directory = journalLocation == .keychain ? device.keychainDirectory : device.containerDirectory
        return directory.appendingPathComponent("journal.json")
    }

    /// Starts the app; `user` signs in right after launch. The app dies at `crashAt`.
    func launch(user: String?, crashAt: PurchaseStep? = nil) async throws -> AppProcess {
        let process = device.launch()
        let journal = try launchJournal()
        let device = self.device
        let adapter = wrapAdapter(generation.makeAdapter(in: process, purchasingTimeout: purchasingTimeout))
        let probe = PurchaseProbe { step in
            if step == crashAt {
                device.kill()
                throw SimulatedCrash(step: step)
            }
        }
        let coordinator = PurchaseCoordinator(
            api: PurserAPIClient(baseURL: server.url, timeout: 5), journal: journal, store: adapter,
            configuration: .init(retry: RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(5), maxDelay: .milliseconds(40)),
                                 probe: probe, seed: 42, now: { server.clock.now() }))
        let app = AppProcess(process: process, coordinator: coordinator, journal: journal)
        await app.run {
            await coordinator.start()
            if let user { await coordinator.login(PurserSession(userID: user, authorization: .development)) }
        }
        return app
    }

    /// `user` buys `productID` and the app dies right after StoreKit reported the payment, before submitting it.
    /// Returns the unfinished transaction's id.
    func payThenCrash(user: String, productID: String = "gold60",
                      sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let run = try await launch(user: user, crashAt: .paid)
        await #expect(throws: PurchaseError.terminated, sourceLocation: sourceLocation) { try await run.buy(productID) }
        return try #require(device.unfinishedTransactionIDs.last, sourceLocation: sourceLocation)
    }

    /// Checks invariants 2 and 5 for `transactionID`: finished exactly once, and never before the server decided.
    func expectFinishedOnce(_ transactionID: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        let once = await eventually { device.finishCount(of: transactionID) == 1 }
        #expect(once, "transaction \(transactionID) finished \(device.finishCount(of: transactionID)) times",
                sourceLocation: sourceLocation)
        #expect(earlyFinishes.withLock { $0 }.isEmpty, "finished before a decision", sourceLocation: sourceLocation)
    }
}

/// The crash a probe injects.
struct SimulatedCrash: Error {
    let step: PurchaseStep
}

/// One run of the app: its coordinator and everything it reported.
final class AppProcess: Sendable {
    let process: SimulatedProcess
    let coordinator: PurchaseCoordinator
    let journal: PurchaseJournal
    private let recorded = LockedValue<[PurchaseEvent]>([])

    init(process: SimulatedProcess, coordinator: PurchaseCoordinator, journal: PurchaseJournal) {
        self.process = process
        self.coordinator = coordinator
        self.journal = journal
        let recorded = self.recorded
        Task {
            for await event in coordinator.events { recorded.withLock { $0.append(event) } }
        }
    }

    /// Runs `body` as this process (StoreKit calls reach its device).
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
        try await SimulatedProcess.$current.withValue(process) { try await body() }
    }

    func buy(_ productID: String) async throws(PurchaseError) -> PurchaseEvent {
        do {
            return try await run { try await self.coordinator.buy(productID) }
        } catch let error as PurchaseError {
            throw error
        } catch {
            throw .terminated
        }
    }

    func recover(_ trigger: RecoveryTrigger) async {
        await run { await self.coordinator.recover(trigger) }
    }

    var events: [PurchaseEvent] { recorded.withLock { $0 } }

    /// Waits for an event matching `predicate`.
    func event(where predicate: @escaping @Sendable (PurchaseEvent) -> Bool) async -> PurchaseEvent? {
        guard await eventually({ self.events.contains(where: predicate) }) else { return nil }
        return events.first(where: predicate)
    }

    func kill() async {
        process.device.kill()
        await coordinator.shutdown()
    }
}

/// Polls `condition` for up to `seconds`.
func eventually(seconds: Double = 10, _ condition: @Sendable () async throws -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if (try? await condition()) == true { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return (try? await condition()) == true
}

extension PurchaseEvent {
    var isDelivered: Bool { if case .delivered = self { true } else { false } }
    var isRedelivered: Bool { if case .redelivered = self { true } else { false } }
    var isOtherAccount: Bool { if case .deliveredToOtherAccount = self { true } else { false } }
    var pendingReason: PendingPurchaseReason? { if case .pending(let p) = self { p.reason } else { nil } }
    var failureReason: PurchaseFailureReason? { if case .failed(let f) = self { f.reason } else { nil } }
    var orderID: OrderID? {
        switch self {
        case .delivered(let d), .redelivered(let d), .deliveredToOtherAccount(let d): d.orderID
        case .pending(let p): p.orderID
        case .failed(let f): f.orderID
        }
    }
}
