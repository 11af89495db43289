import Foundation
import Logging
import PurserStorage

/// Where one app's ledger lives, as its settings name it (`ServerConfiguration.ledgerLocation()`): the embedded
/// SQLite file, or a PostgreSQL database (a further app's in a schema of its own) that several replicas share.
public enum LedgerLocation: Sendable {
    /// The SQLite ledger at this path (`purser.sqlite` in `dataDirectory`; a further app's `apps/BUNDLE_ID.sqlite`).
    case sqlite(path: String)
    /// The PostgreSQL ledger `database.url` names, in the schema of a further app (`postgresSchema(forApp:)`).
    case postgres(PostgresLedgerStore.Configuration)

    /// Opens the ledger; its webhook events name `bundleId` and get random ids (`OutboxIdentity`; `eventSeed` seeds
    /// them, for a chaos run that replays). A PostgreSQL store connects when it first runs: run it in the server's
    /// service group (`PurserAssembly` does), or with `whileRunning`.
    public func open(bundleId: String, logger: Logger, eventSeed: UInt64? = nil) async throws -> any LedgerStore {
        let outbox = OutboxIdentity(bundleID: bundleId, seed: eventSeed)
        switch self {
        case .postgres(let configuration):
            return PostgresLedgerStore(configuration: configuration, outbox: outbox, logger: logger)
        case .sqlite(let path):
            // The store makes the file's directory, owner-only (0700), when it is missing.
            return try await SQLiteLedgerStore.open(path: path, outbox: outbox, logger: logger)
        }
    }
}
