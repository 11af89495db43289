import AppStoreSimulator
import AppStoreVerification
import Foundation
import HTTPTypes
import Purser
import PurserCore
import Synchronization

/// The chaos run's app on one device: a `PurserApp` built as the plan says, whose process dies at the step a
/// purchase's crash plan names.
final class ChaosApp: Sendable {
    let plan: DevicePlan
    let app: PurserApp
    /// How long a StoreKit 1 payment may stay `purchasing` before `buy` answers that the store is busy.
    static let purchasingTimeout = Duration.seconds(1)
    /// How long a slow payment's sheet stays open: longer than the app waits.
    static let slowPaymentSheet = Duration.milliseconds(1_500)

    private let crashAt = Mutex<PurchaseStep?>(nil)
    private let running = Mutex<Running?>(nil)

    /// One process of the app, and who is signed in.
    struct Running: Sendable {
        var process: PurserAppProcess
        var user: String?
    }

    init(
        plan: DevicePlan, server: ChaosServer, directory: URL, record: ChaosRecord, sabotage: ChaosSabotage,
        runSeed: UInt64, transport: any PurserHTTPTransport
    ) {
        self.plan = plan
        self.app = PurserApp(
            device: plan.makeDevice(store: server.appStore, directory: directory, runSeed: runSeed),
            generation: plan.generation,
            api: PurserAPIClient(
                baseURL: server.url, headers: [NetworkFaults.deviceHeader.rawName: plan.id], app: server.app,
                transport: transport),
            ledger: server.store, clock: server.clock,
            configuration: .init(
                journalInKeychain: plan.keychainJournal, journalRetention: 1, purchasingTimeout: Self.purchasingTimeout,
                retry: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(1), maxDelay: .milliseconds(4)),
                seed: runSeed &+ UInt64(plan.index), wrapAdapter: sabotage.adapter ?? { $0 }),
            onEarlyFinish: { transactionID, ledger in record.finishedEarly(transactionID, ledger: ledger) })
    }

    var device: SimulatedDevice { app.device }

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
        let process = try await app.launch(user: user) { [weak self] step in
            self?.crashAt.withLock { armed in
                guard armed == step else { return false }
                armed = nil
                return true
            } ?? false
        }
        let launched = Running(process: process, user: user)
        running.withLock { $0 = launched }
        return launched
    }

    /// The running app, launched for `user` if it is not running; another user signs in if needed.
    @discardableResult
    func ensureRunning(as user: String) async throws(JournalStoreError) -> Running {
        if var alive = current {
            if alive.user != user {
                alive.user = user
                running.withLock { $0 = alive }
                await alive.process.login(user)
            }
            return alive
        }
        return try await launch(user: user)
    }

    /// Buys `productID`, dying at `crash` if it is set.
    func buy(_ productID: String, crash: PurchaseStep?) async -> Result<PurchaseEvent, PurchaseError> {
        guard let alive = current else { return .failure(.terminated) }
        crashAt.withLock { $0 = crash }
        defer { crashAt.withLock { $0 = nil } }
        let coordinator = alive.process.coordinator
        return await alive.process.run { () async -> Result<PurchaseEvent, PurchaseError> in
            do throws(PurchaseError) {
                return .success(try await coordinator.buy(productID))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Settles whatever StoreKit still holds (the app came back to the foreground).
    func recover() async {
        guard let alive = current else { return }
        let coordinator = alive.process.coordinator
        await alive.process.run { await coordinator.recover(.foreground) }
    }

    func kill() async {
        let alive = running.withLock { running in
            defer { running = nil }
            return running
        }
        device.kill()
        await alive?.process.coordinator.shutdown()
    }

    func uninstall() async {
        await kill()
        device.uninstall()
    }
}
