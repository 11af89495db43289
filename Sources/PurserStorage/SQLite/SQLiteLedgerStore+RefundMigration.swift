extension SQLiteLedgerStore {
    /// Migration 5: partial refunds. A transaction keeps Apple's `revocationType` and the share of it revoked so far
    /// (`revocation_percentage`, milliunits, 100000 for all of it); transactions revoked before partial refunds
    /// existed were revoked whole. Amounts stay in `grants`.
    static let partialRefunds: [String] = [
        "ALTER TABLE apple_transactions ADD COLUMN revocation_type TEXT",
        "ALTER TABLE apple_transactions ADD COLUMN revocation_percentage INTEGER",
        "UPDATE apple_transactions SET revocation_percentage = 100000 WHERE state = 'revoked'",
    ]
}
