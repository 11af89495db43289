import Foundation
import PurserCore

extension SQLiteLedgerStore {
    public func cursor(_ name: String) async throws -> String? {
        try await read("SELECT value FROM reconciliation_cursors WHERE name = ?", [.text(name)])
            .first.map { try $0.text("value") }
    }

    public func setCursor(_ name: String, to value: String, now: Date) async throws {
        try await write { database in
            try database.query(
                """
                INSERT INTO reconciliation_cursors (name, value, updated_at) VALUES (?, ?, ?)
                ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                """, [.text(name), .text(value), .integer(Int(now.millis))])
        }
    }

    public func historyAnchors() async throws -> [HistoryAnchor] {
        try await read(
            """
            SELECT owner_id, MAX(transaction_id) AS anchor, app_transaction_id FROM apple_transactions
            WHERE owner_id IS NOT NULL GROUP BY owner_id ORDER BY owner_id
            """, []
        ).map {
            // SQLite takes a bare column of a `MAX` aggregate from the row that holds the maximum: the anchor's own.
            HistoryAnchor(
                owner: UserID(try $0.text("owner_id")), transactionID: try $0.text("anchor"),
                appTransactionID: $0.optionalText("app_transaction_id"))
        }
    }
}
