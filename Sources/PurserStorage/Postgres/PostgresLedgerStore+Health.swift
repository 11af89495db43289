import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    public func health() async throws -> LedgerHealth {
        let rows = try await withConnection { connection in
            try await self.rows(connection, PostgresQuery(unsafeSQL: LedgerHealth.query))
        }
        guard let row = rows.first?.makeRandomAccess() else {
            throw StorageError(.corrupt, "the ledger's health returned no row")
        }
        func backlog(_ name: String) throws -> LedgerHealth.Backlog {
            LedgerHealth.Backlog(
                count: Int(try row.int64(name)),
                oldest: try row["\(name)_oldest"].decode(Int64?.self).map { Date(millis: $0) })
        }
        return LedgerHealth(
            unbound: try backlog("unbound"), waitingOrders: try backlog("waiting"),
            undispatchedEvents: try backlog("undispatched"), undeliveredEvents: try backlog("undelivered"),
            deadEvents: Int(try row.int64("dead")), openHolds: try backlog("holds"))
    }
}
