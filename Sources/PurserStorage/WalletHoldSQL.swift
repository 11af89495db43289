import Foundation

/// The table of holds (`WalletHoldRules` decides what is written to it).
enum WalletHoldSQL {
    /// Migration 11 of both stores: holds, one row per caller id, with their state.
    static func migration(serial: String, integer: String) -> [String] {
        [
            """
            CREATE TABLE wallet_holds (
                id \(serial),
                idempotency_id TEXT NOT NULL UNIQUE,
                user_id TEXT NOT NULL,
                amounts TEXT NOT NULL,
                reason TEXT NOT NULL,
                expires_in_seconds \(integer) NOT NULL,
                cause TEXT NOT NULL,
                state TEXT NOT NULL,
                captured TEXT,
                expires_at \(integer) NOT NULL,
                created_at \(integer) NOT NULL,
                resolved_at \(integer)
            )
            """,
            "CREATE INDEX wallet_holds_open_user ON wallet_holds (user_id) WHERE state = 'open'",
            "CREATE INDEX wallet_holds_open_expiry ON wallet_holds (expires_at) WHERE state = 'open'",
        ]
    }
}
