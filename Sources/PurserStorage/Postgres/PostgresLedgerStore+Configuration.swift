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

        /// Reads `postgres://user[:password]@host[:port]/database[?sslmode=disable|prefer|require]` (also
        /// `postgresql://`; user, password and database percent-decoded). `password`, when given, wins over the
        /// URL's (pass the secret from the environment and keep it out of files). TLS is `prefer` unless `sslmode`
        /// says otherwise. Connections call themselves `applicationName` in `pg_stat_activity`.
        /// Errors never repeat the URL, which may hold a password.
        public init(
            url: String, password: String? = nil, applicationName: String = "purser",
            connectionWaitTimeout: Duration = .seconds(10)
        ) throws(StorageError) {
            guard let components = URLComponents(string: url),
                let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme)
            else {
                throw StorageError(.unavailable, "the database URL is not a postgres:// URL")
            }
            guard let host = components.host, !host.isEmpty else {
                throw StorageError(.unavailable, "the database URL names no host")
            }
            guard let user = components.user, !user.isEmpty else {
                throw StorageError(.unavailable, "the database URL names no user")
            }
            let database = String(components.path.drop(while: { $0 == "/" }))
            let tls: PostgresClient.Configuration.TLS
            switch components.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "prefer" {
            case "disable": tls = .disable
            case "prefer", "allow": tls = .prefer(.makeClientConfiguration())
            case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
            default: throw StorageError(.unavailable, "the database URL's sslmode is not disable, prefer or require")
            }
            var client = PostgresClient.Configuration(
                host: host, port: components.port ?? 5432, username: user,
                password: password ?? components.password, database: database.isEmpty ? nil : database, tls: tls)
            client.options.additionalStartupParameters = [("application_name", applicationName)]
            self.init(client: client, connectionWaitTimeout: connectionWaitTimeout)
        }
    }
}
