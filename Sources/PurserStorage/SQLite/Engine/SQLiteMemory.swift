import CSQLite

/// What SQLite holds in memory in this process, over every connection: mostly their page caches (the writer's up to
/// 256 MiB, each reader's up to 64 MiB), which fill as the ledger grows and then stay. A long run's resident memory
/// less this is what grows with the purchases.
public enum SQLiteMemory {
    /// Bytes SQLite has allocated and not freed (`sqlite3_memory_used`).
    public static var inUse: Int { Int(sqlite3_memory_used()) }
}
