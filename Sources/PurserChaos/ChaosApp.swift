import AppStoreSimulator
import AppStoreVerification
import Foundation
import HTTPTypes
import Purser
import PurserCore
import PurserStoreKit
import PurserStorage

/// The app with Purser inside, installed on one simulated device. Each `launch` is a new process: new memory, the
/// same journal file and StoreKit queue. A crash planned for a purchase kills the process at that step.
final class ChaosApp: Sendable {
    let plan: DevicePlan
    let device: SimulatedDevice
    let server: ChaosServer
    let sabotage: ChaosSabotage
    let runSeed: UInt64
    let transport: any PurserHTTPTransport
    /// How long a StoreKit 1 payment may stay `purchasing` before `buy` answers that the store is busy.
    static let purchasingTimeout = Duration.seconds(1)
    /// How long a slow payment's sheet stays open: longer than the app waits.
    static let slowPaymentSheet = Duration.milliseconds(1_500)

    private let crashAt = LockedValue<PurchaseStep?>(nil)
    private let running = LockedValue<Running?>(nil)

    /// One process of the app.
    struct Running: Sendable {
        var process: SimulatedProcess
        var coordinator: PurchaseCoordinator
        var user: String?
    }

    init(plan: DevicePlan, server: ChaosServer, directory: URL, record: ChaosRecord, sabotage: ChaosSabotage,
         runSeed: UInt64, transport: any PurserHTTPTransport) {
        self.plan = plan
        self.transport = transport
        self.server = server
        self.sabotage = sabotage
        self.runSeed = runSeed
        let device = plan.makeDevice(store: server.appStore, directory: directory, runSeed: runSeed)
        self.device = device
        let store = server.store
        device.onFinish { transactionID in
            // Invariant 5: the ledger must hold a decision before the app finishes. A read that fails is retried,
            // and reported as such if it keeps failing, never taken for "no decision".
            var failure: (any Error)?
            for _ in 0..<3 {
                do {
                    let recorded = try await store.transaction(transactionID)
                    if let recorded, recorded.state != .unbound { return }
                    return record.finishedEarly(transactionID, ledger: recorded?.state.rawValue ?? "no record")
                } catch {
                    failure = error
                }
            }
            record.finishedEarly(transactionID, ledger: "unreadable: \(String(describing: failure))")
        }
    }

    /// The running process, if the app is alive.
    var current: Running? {
        running.withLock { running in
            guard let alive = running, alive.process.isAlive else { return nil }
            return alive
        }
    }

    /// Starts the app and signs `user` in (launch recovery, then login recovery).
    @discardableResult
    func launch(user: String) async throws(JournalStoreError) -> Running {
        let process = device.launch()
        let directory = plan.keychainJournal ? device.keychainDirectory : device.containerDirectory
        let clock = server.clock
        let journal = try PurchaseJournal(
            store: FileJournalStore(url: directory.appendingPathComponent("journal.json")), retention: 1,
            now: { clock.now() })
        let device = self.device
        var adapter = plan.generation.makeAdapter(in: process, purchasingTimeout: Self.purchasingTimeout)
        if let wrap = sabotage.adapter { adapter = wrap(adapter) }
        let crashAt = self.crashAt
        let probe = PurchaseProbe { step in
            if crashAt.withLock({ $0 == step }) {
                crashAt.withLock { $0 = nil }
                device.kill()
                throw ChaosCrash(step: step)
            }
        }
        let coordinator = PurchaseCoordinator(
            api: PurserAPIClient(baseURL: server.url, headers: [NetworkFaults.deviceHeader.rawName: plan.id],
                                 transport: transport),
            journal: journal, store: adapter,
            configuration: .init(retry: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(1), maxDelay: .milliseconds(4)),
                                 probe: probe, seed: runSeed &+ UInt64(plan.index), now: { clock.now() }))
        let app = Running(process: process, coordinator: coordinator, user: user)
        running.withLock { $0 = app }
        await SimulatedProcess.$current.withValue(process) {
            await coordinator.start()
            await coordinator.login(PurserSession(userID: user, authorization: .development))
        }
        return app
    }

    /// The running app, launched for `user` if it is not running; another user signs in if needed.
    @discardableResult
    func ensureRunning(as user: String) async throws(JournalStoreError) -> Running {
        if var app = current {
            if app.user != user {
                app.user = user
                running.withLock { $0 = app }
                let coordinator = app.coordinator
                await run(app) {
                    await coordinator.login(PurserSession(userID: user, authorization: .development))
                }
            }
            return app
        }
        return try await launch(user: user)
    }

    /// Buys `productID`, dying at `crash` if it is set.
    func buy(_ productID: String, crash: PurchaseStep?) async -> Result<PurchaseEvent, PurchaseError> {
        guard let app = current else { return .failure(.terminated) }
        crashAt.withLock { $0 = crash }
        defer { crashAt.withLock { $0 = nil } }
        return await run(app) { () async -> Result<PurchaseEvent, PurchaseError> in
            do throws(PurchaseError) {
                return .success(try await app.coordinator.buy(productID))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Settles whatever StoreKit still holds (the app came back to the foreground).
    func recover() async {
        guard let app = current else { return }
        await run(app) { await app.coordinator.recover(.foreground) }
    }

    func kill() async {
        let app = running.withLock { running in
            defer { running = nil }
            return running
        }
        device.kill()
        await app?.coordinator.shutdown()
    }

    func uninstall() async {
        await kill()
        device.uninstall()
    }

    /// Runs `body` as the app's process (StoreKit calls reach its device).
    private func run<T: Sendable>(_ app: Running, _ body: @Sendable () async -> T) async -> T {
        await SimulatedProcess.$current.withValue(app.process) { await body() }
    }
}

/// The crash a probe injects.
struct ChaosCrash: Error {
    let step: PurchaseStep
}
