import Logging
import NIOCore
import NIOSSL
import PostgresNIO
import Synchronization

/// One look at one server of a multi-host URL, as libpq's `target_session_attrs` takes it: a connection of its own
/// (never one of the pool's, which a busy store may hold), then `SHOW transaction_read_only`. A refused connection
/// fails at once; a server that does not answer fails after the check's timeout. The connection of a server that
/// qualifies stays open: `PostgresServerSwitch` keeps watching it.
struct PostgresServerCheck: Sendable {
    let configuration: PostgresLedgerStore.Configuration
    let logger: Logger
    /// nil when `sslmode=require` and no TLS context can be made: then no server qualifies.
    private let tls: PostgresConnection.Configuration.TLS?
    private static let ids = Atomic<Int>(1_000_000)

    init(configuration: PostgresLedgerStore.Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        let context = { try? NIOSSLContext(configuration: .makeClientConfiguration()) }
        switch configuration.sslMode {
        case .disable: tls = .disable
        case .prefer: tls = context().map { .prefer($0) } ?? .disable
        case .require: tls = context().map { .require($0) }
        }
    }

    /// Why a server did not qualify, for logs and errors (no credentials in it).
    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    /// A connection to `server` when it qualifies; why not when it cannot be reached in time or does not qualify.
    func connect(_ server: PostgresLedgerStore.Configuration.Server) async -> Result<PostgresConnection, Refusal> {
        guard let tls else { return .failure(Refusal(description: "no TLS context for sslmode=require")) }
        do {
            return .success(
                try await OperationDeadline.run(configuration.serverCheckTimeout) {
                    let connection: PostgresConnection
                    do {
                        connection = try await PostgresConnection.connect(
                            on: PostgresConnection.defaultEventLoopGroup.any(),
                            configuration: self.connectionConfiguration(server, tls: tls),
                            id: Self.ids.add(1, ordering: .relaxed).newValue, logger: self.logger)
                    } catch {
                        throw Refusal(
                            description: "cannot connect (\(StorageError(postgres: error).underlying ?? "-"))")
                    }
                    guard !Task.isCancelled, await self.qualifies(connection) else {
                        try? await connection.close()
                        throw Refusal(description: "read-only or not answering its check")
                    }
                    return connection
                })
        } catch let refusal as Refusal {
            return .failure(refusal)
        } catch {
            return .failure(Refusal(description: "no answer within \(configuration.serverCheckTimeout)"))
        }
    }

    /// What a look at a server in use found.
    enum Verdict: Sendable {
        /// It answered, and qualifies.
        case qualifies
        /// It is gone (the connection closed or failed) or no longer qualifies (read-only).
        case fails
        /// No answer within the check's timeout: a loaded server, or one the network lost.
        case noAnswer
    }

    /// Whether the server behind `connection`, opened by `connect`, still qualifies.
    func verdict(on connection: PostgresConnection) async -> Verdict {
        guard !connection.isClosed else { return .fails }
        do {
            return try await OperationDeadline.run(configuration.serverCheckTimeout) {
                await self.qualifies(connection) ? .qualifies : .fails
            }
        } catch {
            return .noAnswer
        }
    }

    private func qualifies(_ connection: PostgresConnection) async -> Bool {
        do {
            let rows = try await connection.query("SHOW transaction_read_only", logger: logger).collect()
            guard configuration.targetSessionAttributes == .readWrite else { return true }
            return try rows.first?.decode(String.self) == "off"
        } catch {
            return false
        }
    }

    private func connectionConfiguration(
        _ server: PostgresLedgerStore.Configuration.Server, tls: PostgresConnection.Configuration.TLS
    ) -> PostgresConnection.Configuration {
        let client = configuration.client
        var connection = PostgresConnection.Configuration(
            host: server.host, port: server.port, username: client.username, password: client.password,
            database: client.database, tls: tls)
        let timeout = configuration.serverCheckTimeout.components
        connection.options.connectTimeout = .nanoseconds(
            timeout.seconds * 1_000_000_000 + timeout.attoseconds / 1_000_000_000)
        connection.options.tlsServerName = client.options.tlsServerName
        connection.options.requireBackendKeyData = client.options.requireBackendKeyData
        connection.options.additionalStartupParameters = client.options.additionalStartupParameters
        return connection
    }

}
