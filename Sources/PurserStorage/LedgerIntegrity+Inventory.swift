import Crypto

extension LedgerIntegrity {
    /// The ledger's tables whose rows the report counts: all but `schema_migrations` (and PostgreSQL's
    /// `webhook_sequences`, a counter per user made from the outbox).
    public static let tables = [
        "orders", "apple_transactions", "grants", "audit_log", "outbox", "webhook_deliveries", "notifications",
        "reconciliation_cursors", "leases", "wallet_transactions", "wallet_entries", "wallet_holds", "queue_samples",
        "api_keys",
        "console_operators", "console_grants", "balances", "trace_links",
    ]

    /// Every user's balance per currency (grants and wallet entries), in standard SQL both stores run: `user_id`,
    /// `currency` and `SplitSum`'s two parts (`total_high`, `total_low`), so that an out-of-range balance is reported.
    static let balancesQuery = """
        SELECT user_id, currency, \(SplitSum.columns("amount", as: "total")) FROM (
            SELECT user_id, currency, amount FROM grants
            UNION ALL SELECT user_id, currency, amount FROM wallet_entries) AS e
        GROUP BY user_id, currency
        """

    /// SHA-256 of the balances' `currency amount` lines (without whose they are), sorted, in hex.
    static func checksum(of lines: [String]) -> String {
        let text = lines.sorted().joined()
        return SHA256.hash(data: Array(text.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// The newest migration a ledger has applied.
    static let schemaQuery = "SELECT CAST(COALESCE(MAX(version), 0) AS BIGINT) AS version FROM schema_migrations"

    /// Refuses a ledger whose schema is older than `latest` (the check's queries need today's tables and columns).
    static func requireSchema(_ version: Int, latest: Int) throws(StorageError) {
        guard version >= latest else {
            throw StorageError(
                .outdated,
                "the ledger is at schema version \(version) and this purser's is \(latest); the check does not "
                    + "migrate: start purser serve (or any command that opens the ledger to write) once, then check")
        }
    }
}
