import PurserStorage
import ServiceLifecycle

/// Whether this replica should get traffic (`GET /ready`, for load balancers; `GET /health` stays liveness): not
/// once it is draining or shutting down, and not while one of its ledgers (a studio has one per app) does not answer.
/// It can only be asked once the server listens, which is after the ledgers were migrated.
public struct ReadinessProbe: Sendable {
    let stores: [any LedgerStore]
    /// The studio's drain (`PurserStudio.runService`): draining, the replica is not ready though it still answers.
    let drain: ReplicaDrain?

    public init(store: any LedgerStore) {
        self.init(stores: [store])
    }

    public init(stores: [any LedgerStore]) {
        self.init(stores: stores, drain: nil)
    }

    init(stores: [any LedgerStore], drain: ReplicaDrain?) {
        self.stores = stores
        self.drain = drain
    }

    /// Returns when ready. Errors: `draining` (503) once a stop began draining (`http.drainSeconds`) or a graceful
    /// shutdown began; `storage_unavailable` (503) when the ledger does not answer a read.
    public func check() async throws {
        guard drain?.isDraining != true, !Task.isShuttingDownGracefully else {
            throw ServiceError(
                .draining, "this replica is stopping: it still answers requests, but send it no new traffic")
        }
        for store in stores { _ = try await store.cursor("readiness") }
    }
}
