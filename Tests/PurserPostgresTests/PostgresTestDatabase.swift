import Foundation
import Logging
import PostgresNIO
import PurserStorage
import Testing

/// The PostgreSQL server the tests use: `PURSER_TEST_DATABASE_URL` (`scripts/postgres.sh start` starts a private one
/// and prints it; `scripts/test.sh` does both). Each test gets a database of its own, dropped afterwards.
enum PostgresTestDatabase {
    static let url = ProcessInfo.processInfo.environment["PURSER_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static var isConfigured: Bool { url != nil }
    static let howToRun: Comment = """
        PURSER_TEST_DATABASE_URL is not set: `export PURSER_TEST_DATABASE_URL="$(scripts/postgres.sh start DIR)"` \
        starts a private PostgreSQL, then `swift test --filter PurserPostgresTests` (scripts/test.sh does both)
        """

    static var logger: Logger {
        var logger = Logger(label: "purser.postgres-tests")
        logger.logLevel = .error
        return logger
    }

    /// The configuration of the server's database named in the URL, for administration.
    static func adminConfiguration() throws -> PostgresLedgerStore.Configuration {
        guard let url else { throw StorageError(.unavailable, "PURSER_TEST_DATABASE_URL is not set") }
        return try PostgresLedgerStore.Configuration(url: url, applicationName: "purser-test-admin")
    }

    /// Runs `body` with the configuration of a new, empty database (its connections named `applicationName`), and
    /// drops the database afterwards.
    static func withFreshDatabase<T>(
        applicationName: String = "purser-test",
        connectionWaitTimeout: Duration = .seconds(10),
        _ body: (PostgresLedgerStore.Configuration, _ name: String) async throws -> T
    ) async throws -> T {
        let name = "purser_test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        try await withAdmin { try await $0.perform("CREATE DATABASE \(unescaped: name)") }
        var configuration = try adminConfiguration()
        configuration.client.database = name
        configuration.client.options.additionalStartupParameters = [("application_name", applicationName)]
        configuration.connectionWaitTimeout = connectionWaitTimeout
        do {
            let result = try await body(configuration, name)
            try await withAdmin { try await $0.perform("DROP DATABASE \(unescaped: name) WITH (FORCE)") }
            return result
        } catch {
            _ = try? await withAdmin { try await $0.perform("DROP DATABASE \(unescaped: name) WITH (FORCE)") }
            throw error
        }
    }

    /// Runs `body` with a running client on the URL's own database.
    @discardableResult
    static func withAdmin<T: Sendable>(
        _ configuration: PostgresLedgerStore.Configuration? = nil,
        _ body: @Sendable (PostgresClient) async throws -> T
    ) async throws -> T {
        let client = PostgresClient(configuration: try configuration?.client ?? adminConfiguration().client)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(client)
        }
    }

    /// Runs `count` stores on `configuration` (each its own pool, as replicas have) for the length of `body`.
    static func withStores<T: Sendable>(
        _ count: Int, _ configuration: PostgresLedgerStore.Configuration,
        _ body: @Sendable ([PostgresLedgerStore]) async throws -> T
    ) async throws -> T {
        let stores = (0..<count).map { _ in PostgresLedgerStore(configuration: configuration, logger: logger) }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            for store in stores { group.addTask { await store.run() } }
            do {
                let result = try await body(stores)
                for store in stores { try await store.close() }
                return result
            } catch {
                for store in stores { try? await store.close() }
                throw error
            }
        }
    }
}

extension PostgresClient {
    /// Runs `query` to the end and returns its rows.
    @discardableResult
    func perform(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await self.query(query).collect()
    }
}
