import AppStoreSimulator
import Purser

/// One process of a `PurserApp`, from launch to kill: its device process, coordinator and journal.
public struct PurserAppProcess: Sendable {
    public let process: SimulatedProcess
    public let coordinator: PurchaseCoordinator
    public let journal: PurchaseJournal

    public init(process: SimulatedProcess, coordinator: PurchaseCoordinator, journal: PurchaseJournal) {
        self.process = process
        self.coordinator = coordinator
        self.journal = journal
    }

    /// Whether this process is still the one running on its device.
    public var isAlive: Bool { process.isAlive }

    /// Runs `body` as this process (StoreKit calls reach its device).
    public func run<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
        try await SimulatedProcess.$current.withValue(process) { try await body() }
    }

    /// Signs `user` in (with development authorization); the coordinator settles what they left unfinished.
    public func login(_ user: String) async {
        let coordinator = self.coordinator
        await run { await coordinator.login(PurserSession(userID: user, authorization: .development)) }
    }

    /// Kills the process and stops its coordinator.
    public func kill() async {
        process.device.kill()
        await coordinator.shutdown()
    }
}
