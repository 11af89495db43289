import ServiceLifecycle
import Synchronization

/// Opens once the ledger is migrated. Every worker of `serve` waits for it before its first step, so no worker
/// reads or writes a table that a migration has yet to create (on a fresh ledger the webhook worker once logged
/// `storage_query_failed` before migration 1 had run).
final class LedgerReadiness: Sendable {
    private struct State {
        var isOpen = false
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
    }

    private let state = Mutex(State())

    /// The ledger is migrated: every waiting worker goes on, and later ones do not wait.
    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [:] }
            return state.waiters
        }
        for waiter in waiters.values { waiter.resume() }
    }

    /// Returns once `open()` was called.
    /// - Throws: `CancellationError` when the task is cancelled first (a failed migration ends the service group).
    func wait() async throws {
        guard
            let id = state.withLock({ state -> Int? in
                guard !state.isOpen else { return nil }
                state.nextWaiter += 1
                return state.nextWaiter
            })
        else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let now: Result<Void, any Error>? = state.withLock { state in
                    if state.isOpen { return .success(()) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
    }
}

/// A long-lived worker that starts only once the ledger is migrated (`LedgerReadiness`).
struct AfterMigration: Service, CustomStringConvertible {
    let readiness: LedgerReadiness
    let worker: any Service
    /// The app whose worker this is: its metrics' `app` label.
    let app: String

    /// Waits for the migrated ledger, then runs the worker; a shutdown (graceful or not) while it waits ends it
    /// quietly, so a SIGTERM during a long migration does not wait on workers that never started.
    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown { try await readiness.wait() }
        } catch is CancellationError {
            return
        }
        try await PurserMetrics.$app.withValue(app) { try await worker.run() }
    }

    var description: String { "\(worker)" }
}
