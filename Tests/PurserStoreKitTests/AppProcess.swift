import AppStoreVerification
import Foundation
import Purser
import PurserChaos
import PurserCore
import Synchronization

/// One run of the SDK tests' app: its coordinator and everything it reported.
final class AppProcess: Sendable {
    let app: PurserAppProcess
    private let recorded = Mutex<[PurchaseEvent]>([])
    private let spendOutcomes = Mutex<[SpendOutcome]>([])

    init(_ app: PurserAppProcess) {
        self.app = app
        let events = app.coordinator.events
        Task { [weak self] in
            for await event in events { self?.recorded.withLock { $0.append(event) } }
        }
        let outcomes = app.coordinator.spendOutcomes
        Task { [weak self] in
            for await outcome in outcomes { self?.spendOutcomes.withLock { $0.append(outcome) } }
        }
    }

    /// Spends from the signed-in user's wallet as this process; the error is `spend`'s own.
    func spend(_ amounts: [String: Int64], reason: String, id: String) async -> Result<SpendResult, SpendError> {
        await run {
            do throws(SpendError) {
                return .success(try await self.coordinator.spend(amounts, reason: reason, id: id))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Waits for what recovery reported about the spend `id`.
    func spendOutcome(_ id: String) async -> SpendOutcome? {
        let matches: @Sendable (SpendOutcome) -> Bool = {
            switch $0 {
            case .spent(let result): result.id == id
            case .refused(let refused, _): refused == id
            }
        }
        guard await eventually({ self.spendOutcomes.withLock { $0.contains(where: matches) } }) else { return nil }
        return spendOutcomes.withLock { $0.first(where: matches) }
    }

    var coordinator: PurchaseCoordinator { app.coordinator }
    var journal: PurchaseJournal { app.journal }

    /// Runs `body` as this process (StoreKit calls reach its device).
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
        try await app.run(body)
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

    /// Waits for the event about `transactionID`.
    func event(for transactionID: String) async -> PurchaseEvent? {
        await event { $0.transactionID == transactionID }
    }

    func kill() async {
        await app.kill()
    }
}
