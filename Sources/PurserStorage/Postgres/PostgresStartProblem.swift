import Logging
import PostgresNIO

/// Why a ledger cannot be reached at start, in the server's own words: the pool only says it waited in vain, while
/// a connection of its own to the first server carries the refusal (a wrong password, a missing database, a pooler
/// that refuses a startup parameter). A pooler such as pgbouncer 1.18 refuses `search_path`, which a studio's further
/// apps send to reach the schema of their ledger: the error names that case and its fix.
struct PostgresStartProblem: Sendable {
    let configuration: PostgresLedgerStore.Configuration
    let logger: Logger

    /// `error` with the first server's refusal added, when a connection of its own is refused too.
    func explaining(_ error: StorageError) async -> StorageError {
        let server =
            configuration.servers.first
            ?? .init(host: configuration.client.host ?? "localhost", port: configuration.client.port ?? 5432)
        let check = PostgresServerCheck(configuration: configuration, logger: logger)
        switch await check.connect(server) {
        case .success(let connection):
            try? await connection.close()
            return error
        case .failure(let refusal):
            var message = "\(error.message); a connection of its own to \(server.host):\(server.port): \(refusal)"
            if refusal.description.contains("search_path") {
                message +=
                    ". The ledger of a studio's further app is in a schema of its own, set with the search_path "
                    + "startup parameter, which a connection pooler such as pgbouncer refuses: give Purser the "
                    + "database itself (a multi-host URL with target_session_attrs=read-write), not the pooler"
            }
            var explained = StorageError(error.code, message)
            explained.underlying = error.underlying
            return explained
        }
    }
}
