import Foundation
import PurserCore

/// How both stores keep a wallet transaction: its amounts and balances as canonical JSON (sorted keys, so one request
/// is always spelled alike). `WalletRules` decides what is written.
enum WalletRows {
    static func json(_ amounts: [String: Int64]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(amounts), as: UTF8.self)
    }

    static func amounts(_ json: String) throws -> [String: Int64] {
        do {
            return try JSONDecoder().decode([String: Int64].self, from: Data(json.utf8))
        } catch {
            throw StorageError(.corrupt, "a wallet transaction's amounts do not decode")
        }
    }

    /// Migration 10 of both stores (`serial` is the id column's type): wallet transactions, one row per request
    /// (its idempotency id unique forever), and their entries, which balances add to the grants.
    static func migration(serial: String, integer: String) -> [String] {
        [
            """
            CREATE TABLE wallet_transactions (
                id \(serial),
                idempotency_id TEXT NOT NULL UNIQUE,
                user_id TEXT NOT NULL,
                amounts TEXT NOT NULL,
                reason TEXT NOT NULL,
                metadata TEXT,
                cause TEXT NOT NULL,
                balances TEXT NOT NULL,
                created_at \(integer) NOT NULL
            )
            """,
            "CREATE INDEX wallet_transactions_user ON wallet_transactions (user_id, id)",
            """
            CREATE TABLE wallet_entries (
                wallet_transaction_id \(integer) NOT NULL REFERENCES wallet_transactions (id),
                user_id TEXT NOT NULL,
                currency TEXT NOT NULL,
                amount \(integer) NOT NULL
            )
            """,
            "CREATE INDEX wallet_entries_user ON wallet_entries (user_id, currency)",
        ]
    }
}
