import Foundation
import Logging
import PostgresNIO

extension PostgresLedgerStore {
    /// Makes an empty database for one run (a chaos run, a benchmark) on the server `url` reaches, and returns the
    /// URL of that database. `name` must be a plain identifier (letters, digits, `_`).
    /// - Throws: `StorageError(.unavailable)` when the server cannot be reached or refuses.
    public static func createDatabase(
        _ name: String, besides url: String, password: String? = nil, logger: Logger
    ) async throws -> String {
        try await administer(url: url, password: password, logger: logger) { client in
            try await client.query("CREATE DATABASE \(unescaped: try identifier(name))", logger: logger)
        }
        guard var components = URLComponents(string: url) else {
            throw StorageError(.unavailable, "the database URL is not a postgres:// URL")
        }
        components.path = "/" + name
        guard let made = components.string else { throw StorageError(.unavailable, "cannot name the new database") }
        return made
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
        let client = PostgresClient(configuration: configuration.client, backgroundLogger: logger)
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
