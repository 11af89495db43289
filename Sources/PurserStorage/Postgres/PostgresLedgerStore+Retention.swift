import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    public func prune(before cutoff: Date, limit: Int, now: Date) async throws -> LedgerPruning {
        try await inTransaction { connection in
            var changed: [Int] = []
            for statement in LedgerRetention.statements(before: cutoff.millis, now: now.millis, limit: limit) {
                changed.append(try await self.rows(connection, PostgresQuery(unsafeSQL: statement)).count)
            }
            return LedgerRetention.pruning(changed)
        }
    }
}
