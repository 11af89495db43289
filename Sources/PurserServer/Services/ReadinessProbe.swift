import PurserStorage
import ServiceLifecycle

/// Whether this replica should get traffic (`GET /ready`, for load balancers; `GET /health` stays liveness): not
/// once it is shutting down, and not while one of its ledgers (a studio has one per app) does not answer. It can only
/// be asked once the server listens, which is after the ledgers were migrated.
public struct ReadinessProbe: Sendable {
    let stores: [any LedgerStore]

    public init(store: any LedgerStore) {
        self.stores = [store]
    }

    public init(stores: [any LedgerStore]) {
        self.stores = stores
    }

    /// Returns when ready. Errors: `draining` (503) once a graceful shutdown began; `storage_unavailable` (503) when
    /// the ledger does not answer a read.
    public func check() async throws {
        guard !Task.isShuttingDownGracefully else {
            throw ServiceError(.draining, "this replica is shutting down; its requests in flight still get answers")
        }
        for store in stores { _ = try await store.cursor("readiness") }
    }
}
