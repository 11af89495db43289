extension SQLiteLedgerStore {
    /// Versioned schema changes, applied in order at start-up, each in its own transaction and recorded in
    /// `schema_migrations`. Never edit a released entry; append a new one.
    ///
    /// Expand, then contract a release later: during a rolling deploy the previous release runs on the schema this
    /// list makes, so a new entry only adds (tables, nullable or defaulted columns, indexes). Dropping, renaming or
    /// narrowing what the previous release reads or writes waits for a later release, once no running code uses it.
    /// `SQLitePreviousReleaseTests` compiles every statement of the previous release against this schema: with each
    /// new entry, print them again (`scripts/release-statements.py COMMIT sqlite`, the server guide's "SQLite and PostgreSQL").
    static let migrations: [(version: Int, statements: [String])] = [
        (
            1,
            [
                """
                CREATE TABLE orders (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    product_id TEXT NOT NULL,
                    quantity INTEGER NOT NULL,
                    state TEXT NOT NULL,
                    transaction_id TEXT,
                    created_at INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL
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
                    quantity INTEGER NOT NULL,
                    purchase_date INTEGER NOT NULL,
                    app_account_token TEXT,
                    environment TEXT NOT NULL,
                    revocation_date INTEGER,
                    state TEXT NOT NULL,
                    owner_id TEXT,
                    order_id TEXT REFERENCES orders (id),
                    rejection_code TEXT,
                    rejection_message TEXT,
                    recorded_at INTEGER NOT NULL,
                    updated_at INTEGER NOT NULL
                )
                """,
                "CREATE INDEX apple_transactions_owner ON apple_transactions (owner_id)",
                """
                CREATE TABLE grants (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    transaction_id TEXT NOT NULL REFERENCES apple_transactions (transaction_id),
                    user_id TEXT NOT NULL,
                    currency TEXT NOT NULL,
                    amount INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    created_at INTEGER NOT NULL
                )
                """,
                // A transaction is credited at most once per currency; revokes and restores may alternate.
                "CREATE UNIQUE INDEX grants_credit_once ON grants (transaction_id, currency) WHERE kind = 'credit'",
                "CREATE INDEX grants_user ON grants (user_id, currency)",
                "CREATE INDEX grants_transaction ON grants (transaction_id)",
                """
                CREATE TABLE audit_log (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    at INTEGER NOT NULL,
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
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    idempotency_key TEXT NOT NULL UNIQUE,
                    topic TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    delivered_at INTEGER
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
                    signed_date INTEGER,
                    received_at INTEGER NOT NULL,
                    processed_at INTEGER,
                    outcome TEXT
                )
                """,
                "CREATE INDEX notifications_transaction ON notifications (transaction_id)",
                """
                CREATE TABLE reconciliation_cursors (
                    name TEXT PRIMARY KEY,
                    value TEXT NOT NULL,
                    updated_at INTEGER NOT NULL
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
                    expires_at INTEGER NOT NULL
                )
                """
            ]
        ),
        (4, webhookOutbox),
        (5, partialRefunds),
        (6, appleFollowUpMigration),
        (8, UserPurchases.unsettledTokenIndex),
        (10, WalletRows.migration(serial: "INTEGER PRIMARY KEY AUTOINCREMENT", integer: "INTEGER")),
        (11, WalletHoldSQL.migration(serial: "INTEGER PRIMARY KEY AUTOINCREMENT", integer: "INTEGER")),
        (12, LedgerRetention.migration),
        (13, LedgerTimelineSQL.migration),
        (14, APIKeySQL.migration),
        (15, ConsoleLedgerSQL.migration(serial: "INTEGER PRIMARY KEY AUTOINCREMENT", integer: "INTEGER")),
        (16, ConsoleLedgerSQL.sessionsMigration(integer: "INTEGER")),
        (18, LedgerBalances.sqliteMigration),
        (19, TraceLinkSQL.migration),
        (20, LedgerBalances.sqliteClusteredMigration),
    ]
}
