import Configuration

extension ServerConfiguration {
    /// Backups `serve` takes of its SQLite ledger by itself (`BackupService`), as `purser backup` does: a checked,
    /// fsynced snapshot every `intervalSeconds` into `directory`, keeping the newest `keep`.
    public struct Backup: Sendable, Encodable {
        /// How often; 0 (the default) takes none.
        public var intervalSeconds: Double = 0
        /// Where the copies go, `purser-<UTC time>.sqlite`; relative to the configuration file. None: `backups` in
        /// `dataDirectory`.
        public var directory: String?
        /// How many copies are kept; older ones are deleted once a newer one checked sound.
        public var keep = 7
        public init() {}
    }
}

extension ServerConfiguration.Backup {
    /// `intervalSeconds` (double, default `0`: off), `directory` (string, optional) and `keep` (int, default `7`),
    /// scoped to `backup`.
    public init(reader: ConfigReader) {
        self.init()
        intervalSeconds = reader.double(forKey: "intervalSeconds", default: intervalSeconds)
        directory = reader.string(forKey: "directory")
        keep = reader.int(forKey: "keep", default: keep)
    }

    /// A configuration that cannot run; `postgres` when the ledger is PostgreSQL, which `serve` does not copy.
    func check(postgres: Bool) throws(ConfigurationError) {
        guard intervalSeconds >= 0 else { throw ConfigurationError("backup.intervalSeconds must be 0 (off) or more") }
        guard keep >= 1 else { throw ConfigurationError("backup.keep must be at least 1") }
        if postgres, intervalSeconds > 0 {
            throw ConfigurationError(
                "backup.intervalSeconds copies a SQLite ledger; this ledger is PostgreSQL (database.url): back it "
                    + "up with pg_dump or a base backup with WAL archiving (the server guide, \"SQLite and PostgreSQL\")"
            )
        }
    }
}
