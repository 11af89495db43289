import Configuration

extension ServerConfiguration {
    /// How long what is not financial is kept (`RetentionService`): delivered webhook events' payloads, processed
    /// notifications' de-duplication records and expired leases. Transactions, grants, wallet rows and the audit log
    /// are kept for good: they are the accounts.
    public struct Retention: Sendable, Encodable {
        /// Days after which it is pruned; 0 keeps everything.
        public var days = 90
        /// How often one replica (under the `retention` lease) prunes.
        public var intervalSeconds: Double = 3600
        public init() {}
    }
}

extension ServerConfiguration.Retention {
    /// `days` (int, default `90`; 0 keeps everything) and `intervalSeconds` (double, default `3600`), scoped to
    /// `retention`.
    public init(reader: ConfigReader) {
        self.init()
        days = reader.int(forKey: "days", default: days)
        intervalSeconds = reader.double(forKey: "intervalSeconds", default: intervalSeconds)
    }

    /// A configuration that cannot run.
    func check() throws(ConfigurationError) {
        guard days >= 0 else { throw ConfigurationError("retention.days must be 0 (keep everything) or more") }
        guard intervalSeconds > 0 else { throw ConfigurationError("retention.intervalSeconds must be more than 0") }
    }
}
