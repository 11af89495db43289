import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    /// Applies the pending migrations, each in its own transaction that first takes a transaction-level advisory lock
    /// (`pg_advisory_xact_lock`, released at commit) and then checks `schema_migrations`: replicas that start together
    /// queue on the lock, and each migration is applied once. Advisory locks are per database, so ledgers in other
    /// databases of the same server do not wait for each other.
    /// When no connection can be had, the error says why: the first server's own answer to a connection of its own
    /// (`PostgresStartProblem`), not only that the pool waited in vain.
    public func migrate() async throws {
        do {
            try await migrate(through: .max)
        } catch let error as StorageError where error.code == .unavailable {
            throw await PostgresStartProblem(configuration: servers.configuration, logger: logger).explaining(error)
        }
    }

    /// Applies the migrations up to version `last`, leaving out `skipped`: the upgrade tests build a ledger as an
    /// earlier release left it (released entries are never edited, so the list cut at `last` is that release's).
    func migrate(through last: Int, skipping skipped: Set<Int> = []) async throws {
        if let schema {
            // The schema of a further app's ledger, made once, before the migrations that fill it.
            try await inTransaction { connection in
                try await self.execute(connection, "SELECT pg_advisory_xact_lock(\(Self.migrationLockKey))")
                try await self.execute(connection, PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(schema)"))
            }
        }
        for migration in Self.migrations where migration.version <= last && !skipped.contains(migration.version) {
            let applied = try await inTransaction { connection in
                try await self.execute(connection, "SELECT pg_advisory_xact_lock(\(Self.migrationLockKey))")
                try await self.execute(
                    connection,
                    """
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL
                    )
                    """)
                let done = try await self.rows(
                    connection, "SELECT 1 FROM schema_migrations WHERE version = \(migration.version)")
                guard done.isEmpty else { return false }
                for statement in migration.statements {
                    try await self.execute(connection, PostgresQuery(unsafeSQL: statement))
                }
                try await self.execute(
                    connection,
                    """
                    INSERT INTO schema_migrations (version, applied_at) VALUES (\(migration.version), \(Date().millis))
                    """)
                return true
            }
            guard applied else { continue }
            logger.info("applied ledger migration", metadata: ["purser.migration": "\(migration.version)"])
        }
    }

    /// The advisory lock key of Purser's migrations: "purser-m" in ASCII.
    static let migrationLockKey: Int64 = 0x7075_7273_6572_2D6D

    /// Versioned schema changes, the same versions as `SQLiteLedgerStore.migrations` in PostgreSQL's dialect: text
    /// ids, BIGINT money and counts, BIGINT milliseconds since 1970 UTC for times. Never edit a released entry;
    /// append a new one.
    ///
    /// Expand, then contract a release later: during a rolling deploy the previous release's replicas run on the
    /// schema this list makes, so a new entry only adds (tables, nullable or defaulted columns, indexes, functions
    /// under a new name or signature). Dropping, renaming or narrowing what the previous release reads, writes or
    /// calls waits for a later release, once no running replica uses it. `PostgresPreviousReleaseTests` prepares
    /// every statement of the previous release against this schema: with each new entry, print them again
    /// (`scripts/release-statements.py COMMIT postgres`, the server guide's "SQLite and PostgreSQL").
    static let migrations: [(version: Int, statements: [String])] = [
        (
            1,
            [
                """
                CREATE TABLE orders (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    product_id TEXT NOT NULL,
                    quantity BIGINT NOT NULL,
                    state TEXT NOT NULL,
                    transaction_id TEXT,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX orders_user ON orders (user_id)",
                """
                CREATE TABLE apple_transactions (
                    transaction_id TEXT PRIMARY KEY,
                    original_transaction_id TEXT NOT NULL,
                    bundle_id TEXT NOT NULL,
                    product_id TEXT NOT NULL,
                    type TEXT,
                    quantity BIGINT NOT NULL,
                    purchase_date BIGINT NOT NULL,
                    app_account_token TEXT,
                    environment TEXT NOT NULL,
                    revocation_date BIGINT,
                    state TEXT NOT NULL,
                    owner_id TEXT,
                    order_id TEXT REFERENCES orders (id),
                    rejection_code TEXT,
                    rejection_message TEXT,
                    recorded_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX apple_transactions_owner ON apple_transactions (owner_id)",
                """
                CREATE TABLE grants (
                    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    transaction_id TEXT NOT NULL REFERENCES apple_transactions (transaction_id),
                    user_id TEXT NOT NULL,
                    currency TEXT NOT NULL,
                    amount BIGINT NOT NULL,
                    kind TEXT NOT NULL,
                    created_at BIGINT NOT NULL
                )
                """,
                // A transaction is credited at most once per currency; revokes and restores may alternate.
                "CREATE UNIQUE INDEX grants_credit_once ON grants (transaction_id, currency) WHERE kind = 'credit'",
                "CREATE INDEX grants_user ON grants (user_id, currency)",
                "CREATE INDEX grants_transaction ON grants (transaction_id)",
                """
                CREATE TABLE audit_log (
                    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    at BIGINT NOT NULL,
                    subject TEXT NOT NULL,
                    subject_id TEXT NOT NULL,
                    event TEXT NOT NULL,
                    cause TEXT NOT NULL,
                    detail TEXT NOT NULL
                )
                """,
                "CREATE INDEX audit_log_subject ON audit_log (subject_id)",
                """
                CREATE TABLE outbox (
                    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    idempotency_key TEXT NOT NULL UNIQUE,
                    topic TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    delivered_at BIGINT
                )
                """,
            ]
        ),
        (
            2,
            [
                """
                CREATE TABLE notifications (
                    notification_uuid TEXT PRIMARY KEY,
                    notification_type TEXT NOT NULL,
                    subtype TEXT,
                    transaction_id TEXT,
                    environment TEXT,
                    signed_date BIGINT,
                    received_at BIGINT NOT NULL,
                    processed_at BIGINT,
                    outcome TEXT
                )
                """,
                "CREATE INDEX notifications_transaction ON notifications (transaction_id)",
                """
                CREATE TABLE reconciliation_cursors (
                    name TEXT PRIMARY KEY,
                    value TEXT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
            ]
        ),
        (
            3,
            [
                // Leases on units of background work (LedgerStore+Leases.swift).
                """
                CREATE TABLE leases (
                    name TEXT PRIMARY KEY,
                    holder TEXT NOT NULL,
                    expires_at BIGINT NOT NULL
                )
                """
            ]
        ),
        (4, webhookOutbox),
        (5, partialRefunds),
        (6, appleFollowUpMigration),
        (7, settlementFunctions),
        (8, UserPurchases.unsettledTokenIndex),
        (9, overridableBind),
        (10, WalletRows.migration(serial: "BIGSERIAL PRIMARY KEY", integer: "BIGINT")),
        (11, WalletHoldSQL.migration(serial: "BIGSERIAL PRIMARY KEY", integer: "BIGINT")),
        (12, LedgerRetention.migration),
        (13, LedgerTimelineSQL.migration),
        (14, APIKeySQL.migration),
        (15, ConsoleLedgerSQL.migration(serial: "BIGSERIAL PRIMARY KEY", integer: "BIGINT")),
        (16, ConsoleLedgerSQL.sessionsMigration(integer: "BIGINT")),
        (17, revokeAtCredit),
        (18, LedgerBalances.postgresMigration),
        (19, TraceLinkSQL.migration),
    ]
}
