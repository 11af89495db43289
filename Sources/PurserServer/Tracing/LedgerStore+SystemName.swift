import PurserStorage

extension LedgerStore {
    /// The database behind this ledger as OpenTelemetry's `db.system.name` names it, for the ledger's spans.
    var systemName: String {
        switch self {
        case is SQLiteLedgerStore: "sqlite"
        case is PostgresLedgerStore: "postgresql"
        default: "other"
        }
    }
}
