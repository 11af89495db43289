import Foundation
import PurserCore

extension SQLiteLedgerStore {
    public func health() async throws -> LedgerHealth {
        let rows = try await read(LedgerHealth.query, [])
        guard let row = rows.first else { throw StorageError(.corrupt, "the ledger's health returned no row") }
        func backlog(_ name: String) throws -> LedgerHealth.Backlog {
            LedgerHealth.Backlog(
                count: try row.int(name), oldest: row.column("\(name)_oldest")?.integer.map { Date(millis: $0) })
        }
        return LedgerHealth(
            unbound: try backlog("unbound"), waitingOrders: try backlog("waiting"),
            undispatchedEvents: try backlog("undispatched"), undeliveredEvents: try backlog("undelivered"),
            deadEvents: try row.int("dead"), openHolds: try backlog("holds"))
    }
}
