import Foundation
import PurserCore

extension SQLiteLedgerStore {
    public func prune(before cutoff: Date, limit: Int, now: Date) async throws -> LedgerPruning {
        try await write { database in
            LedgerRetention.pruning(
                try LedgerRetention.statements(before: cutoff.millis, now: now.millis, limit: limit).map {
                    try database.query($0).count
                })
        }
    }
}
