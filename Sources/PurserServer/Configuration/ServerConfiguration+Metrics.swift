import Configuration

extension ServerConfiguration {
    /// Prometheus metrics: `GET /metrics` on a listener of its own, so the API's port never exposes them.
    public struct Metrics: Sendable, Encodable {
        /// The metrics listener's port (on `host`); `nil`: no metrics endpoint. 0 picks a free port.
        public var port: Int?
        /// A bearer token the metrics listener requires, when set. Secret; prefer `PURSER_METRICS_TOKEN`.
        public var token: String?
        public init() {}
    }
}

extension ServerConfiguration.Metrics {
    /// `port` and `token` (secret), scoped to `metrics`.
    public init(reader: ConfigReader) {
        self.init()
        port = reader.int(forKey: "port")
        token = reader.string(forKey: "token", isSecret: true)
    }
}
