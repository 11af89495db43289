import Foundation
import Logging
import PostgresNIO

extension PostgresLedgerStore {
    /// Makes an empty database for one run (a chaos run, a benchmark) on the server `url` reaches (of several hosts,
    /// the first that qualifies under its `target_session_attrs`), and returns the URL of that database (every host
    /// kept). `name` must be a plain identifier (letters, digits, `_`).
    /// - Throws: `StorageError(.unavailable)` when the server cannot be reached or refuses.
    public static func createDatabase(
        _ name: String, besides url: String, password: String? = nil, logger: Logger
    ) async throws -> String {
        try await administer(url: url, password: password, logger: logger) { client in
            try await client.query("CREATE DATABASE \(unescaped: try identifier(name))", logger: logger)
        }
        return try PostgresURL(url).replacingDatabase(with: name)
    }

    /// Drops a database `createDatabase` made, closing its remaining connections.
    public static func dropDatabase(_ name: String, besides url: String, password: String? = nil, logger: Logger)
        async throws
    {
        try await administer(url: url, password: password, logger: logger) { client in
            try await client.query(
                "DROP DATABASE IF EXISTS \(unescaped: try identifier(name)) WITH (FORCE)", logger: logger)
        }
    }

    private static func identifier(_ name: String) throws(StorageError) -> String {
        guard !name.isEmpty, name.count <= 63,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else { throw StorageError(.unavailable, "\(name) is not a plain database name") }
        return name
    }

    private static func administer(
        url: String, password: String?, logger: Logger, _ body: @Sendable (PostgresClient) async throws -> Void
    ) async throws {
        let configuration = try Configuration(url: url, password: password, applicationName: "purser-admin")
        var server = configuration.client
        if configuration.choosesServer {
            let check = PostgresServerCheck(configuration: configuration, logger: logger)
            var qualifying: Configuration.Server?
            for candidate in configuration.servers {
                guard case .success(let connection) = await check.connect(candidate) else { continue }
                try? await connection.close()
                qualifying = candidate
                break
            }
            guard let qualifying else { throw StorageError(.unavailable, "no database server qualifies") }
            server = configuration.client(for: qualifying)
        }
        let client = PostgresClient(configuration: server, backgroundLogger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            do {
                try await body(client)
            } catch let error as StorageError {
                throw error
            } catch {
                throw StorageError(.unavailable, "the database server refused: \(String(reflecting: error))")
            }
        }
    }
}
