import Foundation
import NIOSSL
import PostgresNIO

extension PostgresLedgerStore {
    /// Where the ledger lives and how patiently the store waits for it.
    public struct Configuration: Sendable {
        /// The server, credentials, TLS and pool size (postgres-nio's own configuration).
        public var client: PostgresClient.Configuration
        /// How long an operation waits for a pooled connection while the pool hands out none at all (to it or any
        /// other operation) before it fails with `storage_unavailable`. While the database is unreachable the pool
        /// keeps reconnecting in the background; callers get an answer within this time. A busy pool is waited for.
        public var connectionWaitTimeout: Duration
        /// Settlement batches in flight at once, each on a pooled connection of its own (`PostgresSettler`). Fewer
        /// make bigger batches (fewer commits and round trips per settlement); more overlap their round trips.
        public var settlementWorkers: Int
        /// The servers of the URL, in its order. With one server and `any`, the store uses `client` as it is; else it
        /// connects to the first that qualifies under `targetSessionAttributes` and moves to another when that one
        /// fails or turns read-only (`PostgresServerSwitch`). Empty: `client`'s own server.
        public var servers: [Server] = []
        /// Which server qualifies: `any`, or `read-write` (a primary).
        public var targetSessionAttributes: TargetSessionAttributes = .any
        /// How often the store looks for a server that qualifies while it has none (a failover in progress), and how
        /// often it checks the one it uses.
        public var serverCheckInterval: Duration = .milliseconds(250)
        /// How long one check of a server may take (connecting included) before it counts as unanswered. A server in
        /// use is left after three unanswered checks in a row (a loaded server answers late; a lost one never does).
        public var serverCheckTimeout: Duration = .seconds(3)
        var sslMode = SSLMode.prefer
        /// The schema holding this ledger's tables and functions (every connection's `search_path`); nil: the
        /// database's default. A studio keeps each further app's ledger in a schema of its own (`inSchema(_:)`).
        public private(set) var schema: String?

        public init(
            client: PostgresClient.Configuration, connectionWaitTimeout: Duration = .seconds(10),
            settlementWorkers: Int = Configuration.defaultSettlementWorkers
        ) {
            self.client = client
            self.connectionWaitTimeout = connectionWaitTimeout
            self.settlementWorkers = max(1, settlementWorkers)
        }

        /// `PURSER_SETTLEMENT_WORKERS` when set (for benchmarks), else 2.
        public static var defaultSettlementWorkers: Int {
            ProcessInfo.processInfo.environment["PURSER_SETTLEMENT_WORKERS"].flatMap { Int($0) } ?? 2
        }

        /// Reads `postgres://user[:password]@host[:port][,host[:port]…]/database[?sslmode=…&target_session_attrs=…]`
        /// (also `postgresql://`; user, password and database percent-decoded; a host without a port gets 5432, an
        /// IPv6 host goes in brackets). `password`, when given, wins over the URL's (pass the secret from the
        /// environment and keep it out of files). TLS is `prefer` unless `sslmode` says `disable` or `require`.
        /// `target_session_attrs` is `any` (the default, as libpq's) or `read-write`; with several hosts, or with
        /// `read-write`, the store talks to the first host that qualifies and fails over by itself
        /// (`PostgresServerSwitch`). Connections call themselves `applicationName` in `pg_stat_activity`.
        /// Errors never repeat the URL, which may hold a password.
        public init(
            url: String, password: String? = nil, applicationName: String = "purser",
            connectionWaitTimeout: Duration = .seconds(10)
        ) throws(StorageError) {
            let parsed = try PostgresURL(url)
            let tls: PostgresClient.Configuration.TLS
            let sslMode: SSLMode
            switch parsed.query("sslmode") ?? "prefer" {
            case "disable": (tls, sslMode) = (.disable, .disable)
            case "prefer", "allow": (tls, sslMode) = (.prefer(.makeClientConfiguration()), .prefer)
            case "require", "verify-ca", "verify-full":
                (tls, sslMode) = (.require(.makeClientConfiguration()), .require)
            default: throw StorageError(.unavailable, "the database URL's sslmode is not disable, prefer or require")
            }
            guard let attributes = TargetSessionAttributes(rawValue: parsed.query("target_session_attrs") ?? "any")
            else {
                throw StorageError(.unavailable, "the database URL's target_session_attrs is not any or read-write")
            }
            let first = parsed.endpoints[0]
            var client = PostgresClient.Configuration(
                host: first.host, port: first.port, username: parsed.user, password: password ?? parsed.password,
                database: parsed.database.isEmpty ? nil : parsed.database, tls: tls)
            client.options.additionalStartupParameters = [("application_name", applicationName)]
            self.init(client: client, connectionWaitTimeout: connectionWaitTimeout)
            servers = parsed.endpoints
            targetSessionAttributes = attributes
            self.sslMode = sslMode
        }

        /// The URL's `sslmode`, for the server checks' own connections (`client.tls` cannot be read back).
        enum SSLMode: Sendable { case disable, prefer, require }

        /// Which server of the list a session may use, as libpq's `target_session_attrs`.
        public enum TargetSessionAttributes: String, Sendable, Hashable {
            /// Any server that accepts the connection (the first in the list that does).
            case any
            /// A server that accepts writes: `SHOW transaction_read_only` answers `off` (a primary, not a standby).
            case readWrite = "read-write"
        }

        /// One server of a multi-host URL.
        public struct Server: Sendable, Hashable {
            public var host: String
            public var port: Int

            public init(host: String, port: Int = 5432) {
                self.host = host
                self.port = port
            }
        }

        /// Whether the store chooses among servers (several hosts, or `read-write` asked for) rather than using
        /// `client` as it is.
        var choosesServer: Bool { servers.count > 1 || (servers.count == 1 && targetSessionAttributes == .readWrite) }

        /// This configuration with its ledger in `schema` (lower-case letters, digits and `_`, at most 63, not
        /// starting with a digit): migrations create the schema, and every connection sets it as its `search_path`.
        public func inSchema(_ schema: String) throws(StorageError) -> Configuration {
            guard Self.isSchemaName(schema) else {
                throw StorageError(.unavailable, "\(schema) is not a schema name: a-z, 0-9 and _, at most 63")
            }
            var copy = self
            copy.schema = schema
            copy.client.options.additionalStartupParameters.append(("search_path", schema))
            return copy
        }

        /// Whether `name` is a schema name `inSchema(_:)` takes.
        static func isSchemaName(_ name: String) -> Bool {
            guard let first = name.utf8.first, name.utf8.count <= 63,
                !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
            else { return false }
            return name.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
        }

        /// `client` pointed at `server`: the same credentials, database, TLS and options.
        func client(for server: Server) -> PostgresClient.Configuration {
            var configuration = PostgresClient.Configuration(
                host: server.host, port: server.port, username: client.username, password: client.password,
                database: client.database, tls: client.tls)
            configuration.options = client.options
            return configuration
        }
    }
}
