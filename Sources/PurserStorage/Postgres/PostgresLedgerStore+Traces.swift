import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    public func recordTrace(_ traceParent: String, ofTransaction transactionID: String, now: Date) async throws {
        try await withConnection { connection in
            try await self.execute(
                connection,
                """
                INSERT INTO trace_links (transaction_id, trace_parent, recorded_at)
                VALUES (\(transactionID), \(traceParent), \(now.millis))
                ON CONFLICT (transaction_id) DO NOTHING
                """)
        }
    }

    public func trace(ofTransaction transactionID: String) async throws -> String? {
        try await withConnection { connection in
            try await self.rows(
                connection, "SELECT trace_parent FROM trace_links WHERE transaction_id = \(transactionID)"
            ).first.map { try $0.makeRandomAccess().text("trace_parent") }
        }
    }
}
