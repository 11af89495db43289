import Configuration

extension ServerConfiguration {
    /// Webhooks to the game's backend: where every credit, revoke and restore is posted, signed per Standard
    /// Webhooks, and how delivery is paced. No endpoints: no delivery (events still go to the outbox, and are
    /// delivered once an endpoint is configured).
    public struct Webhooks: Sendable, Encodable {
        /// One receiver of events.
        public struct Endpoint: Sendable, Hashable, Encodable {
            /// An absolute `http` or `https` URL; it also names the endpoint in the ledger's delivery records.
            public var url: String
            /// `whsec_<base64 key>` secrets; every one signs each attempt (rotation). Secrets.
            public var secrets: [String]
            /// The event types it takes (`transaction.credited`, `transaction.revoked`, `transaction.restored`,
            /// `wallet.changed`); `nil`: all.
            public var events: [String]?
            /// Whether one user's events reach it strictly in `sequence` order: an event waits until the user's
            /// earlier events are delivered or dead (`LedgerStore.claimWebhookDeliveries`); other users' events go
            /// on meanwhile. Default `false`.
            public var ordered: Bool

            public init(url: String, secrets: [String], events: [String]? = nil, ordered: Bool = false) {
                self.url = url
                self.secrets = secrets
                self.events = events
                self.ordered = ordered
            }
        }

        public var endpoints: [Endpoint] = []
        /// Seconds to wait before each retry (the n-th entry after the n-th failed attempt); past the last, the event
        /// is dead-lettered. `nil`: `WebhookRetrySchedule.standard`, which spans more than three days.
        public var retrySeconds: [Double]?
        /// An attempt that has no answer after this long failed.
        public var timeoutSeconds: Double = 10
        /// Attempts in flight at once, per endpoint.
        public var concurrency = 16
        /// How often an idle worker looks for due events.
        public var pollIntervalSeconds: Double = 1
        /// How long a claimed delivery stays with its worker before another replica may take it (a worker that
        /// died, SIGKILL, holds it no longer than this).
        public var claimSeconds: Double = 60

        public init() {}
    }
}

extension ServerConfiguration.Webhooks {
    /// The longest list of endpoints read: `endpoints.0` to `endpoints.99`.
    static let maxEndpoints = 100

    /// `endpoints` (each `url`, `secret` or `secrets`, `events`, `ordered`), `retrySeconds`, `timeoutSeconds`,
    /// `concurrency`, `pollIntervalSeconds`, `claimSeconds`, scoped to `webhooks`. The file's `endpoints` array is
    /// read by index (`endpoints.0.url`), which is also how the environment names them:
    /// `PURSER_WEBHOOKS_ENDPOINTS_0_SECRET`.
    public init(reader: ConfigReader) {
        self.init()
        endpoints = Self.endpoints(reader: reader)
        retrySeconds = reader.doubleArray(forKey: "retrySeconds")
        timeoutSeconds = reader.double(forKey: "timeoutSeconds", default: timeoutSeconds)
        concurrency = reader.int(forKey: "concurrency", default: concurrency)
        pollIntervalSeconds = reader.double(forKey: "pollIntervalSeconds", default: pollIntervalSeconds)
        claimSeconds = reader.double(forKey: "claimSeconds", default: claimSeconds)
    }
}

extension ServerConfiguration.Webhooks {
    /// The `endpoints` array under `reader`, read by index up to `maxEndpoints`.
    static func endpoints(reader: ConfigReader) -> [Endpoint] {
        var endpoints: [Endpoint] = []
        for index in 0..<Self.maxEndpoints {
            let endpoint = reader.scoped(to: ConfigKey(["endpoints", String(index)]))
            guard let url = endpoint.string(forKey: "url") else { break }
            let secrets =
                (endpoint.string(forKey: "secret", isSecret: true).map { [$0] } ?? [])
                + endpoint.stringArray(forKey: "secrets", isSecret: true, default: [])
            endpoints.append(
                Endpoint(
                    url: url, secrets: secrets, events: endpoint.stringArray(forKey: "events"),
                    ordered: endpoint.bool(forKey: "ordered", default: false)))
        }
        return endpoints
    }
}

extension ServerConfiguration {
    /// Whether a file key holds a webhook secret: `webhooks.endpoints.N.secret` or `.secrets`, also an app's
    /// (`apps.N.webhooks.endpoints.M.secret`).
    static func isWebhookSecretKey(_ key: String) -> Bool {
        (key.hasPrefix("webhooks.endpoints.") || (key.hasPrefix("apps.") && key.contains(".webhooks.endpoints.")))
            && (key.hasSuffix(".secret") || key.hasSuffix(".secrets"))
    }
}
