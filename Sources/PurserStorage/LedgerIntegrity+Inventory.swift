import Crypto

extension LedgerIntegrity {
    /// The ledger's tables whose rows the report counts: all but `schema_migrations` (and PostgreSQL's
    /// `webhook_sequences`, a counter per user made from the outbox).
    public static let tables = [
        "orders", "apple_transactions", "grants", "audit_log", "outbox", "webhook_deliveries", "notifications",
        "reconciliation_cursors", "leases", "wallet_transactions", "wallet_entries", "wallet_holds", "queue_samples",
        "api_keys",
        "console_operators", "console_grants",
    ]

    /// Every user's balance per currency (grants and wallet entries), in standard SQL both stores run: `currency` and
    /// `amount`, without the user.
    static let balancesQuery = """
        SELECT currency, CAST(SUM(amount) AS BIGINT) AS amount FROM (
            SELECT user_id, currency, amount FROM grants
            UNION ALL SELECT user_id, currency, amount FROM wallet_entries) AS e
        GROUP BY user_id, currency
        """

    /// SHA-256 of the balances as sorted `currency amount` lines, in hex.
    static func checksum(of balances: [(currency: String, amount: Int64)]) -> String {
        let lines = balances.map { "\($0.currency) \($0.amount)\n" }.sorted().joined()
        return SHA256.hash(data: Array(lines.utf8)).map { byte in
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
