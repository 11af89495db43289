extension PostgresLedgerStore {
    /// Migration 5: partial refunds, as `SQLiteLedgerStore.partialRefunds`. A transaction keeps Apple's
    /// `revocationType` and the share of it revoked so far (`revocation_percentage`, milliunits); transactions revoked
    /// before partial refunds existed were revoked whole.
    static let partialRefunds: [String] = [
        "ALTER TABLE apple_transactions ADD COLUMN revocation_type TEXT",
        "ALTER TABLE apple_transactions ADD COLUMN revocation_percentage BIGINT",
        "UPDATE apple_transactions SET revocation_percentage = 100000 WHERE state = 'revoked'",
    ]
}
