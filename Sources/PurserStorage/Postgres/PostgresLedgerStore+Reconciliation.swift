import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    public func cursor(_ name: String) async throws -> String? {
        try await withConnection { connection in
            try await self.rows(connection, "SELECT value FROM reconciliation_cursors WHERE name = \(name)")
                .first.map { try $0.makeRandomAccess().text("value") }
        }
    }

    public func setCursor(_ name: String, to value: String, now: Date) async throws {
        try await withConnection { connection in
            try await self.execute(
                connection,
                """
                INSERT INTO reconciliation_cursors (name, value, updated_at) VALUES (\(name), \(value), \(now.millis))
                ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                """)
        }
    }

    public func historyAnchors() async throws -> [HistoryAnchor] {
        try await withConnection { connection in
            try await self.rows(
                connection,
                """
                SELECT DISTINCT ON (owner_id) owner_id, transaction_id AS anchor, app_transaction_id
                FROM apple_transactions WHERE owner_id IS NOT NULL ORDER BY owner_id, transaction_id DESC
                """
            ).map {
                let row = $0.makeRandomAccess()
                return HistoryAnchor(
                    owner: UserID(try row.text("owner_id")), transactionID: try row.text("anchor"),
                    appTransactionID: try row.optionalText("app_transaction_id"))
            }
        }
    }
}
