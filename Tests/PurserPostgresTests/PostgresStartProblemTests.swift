import Foundation
import PostgresNIO
import PurserStorage
import Testing

/// A ledger that cannot be reached at start says why, in the server's words: the pool alone only says it waited.
@Suite(.enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.howToRun))
struct PostgresStartProblemTests {
    static func startError(_ configuration: PostgresLedgerStore.Configuration) async throws -> StorageError {
        try await PostgresTestDatabase.withStores(1, configuration) { stores in
            do {
                try await stores[0].migrate()
            } catch let error as StorageError {
                return error
            }
            throw StorageError(.corrupt, "the migration succeeded")
        }
    }

    @Test func aDatabaseThatDoesNotExistIsNamed() async throws {
        var configuration = try PostgresTestDatabase.adminConfiguration()
        configuration.client.database = "purser_no_such_database"
        configuration.connectionWaitTimeout = .seconds(1)
        let error = try await Self.startError(configuration)
        #expect(error.code == .unavailable)
        // Which wait ends first, the pool's for a connection (1 s here, longer while the pool serves others) or the
        // operation's deadline, is the machine's timing (a loaded CI run met the second): either way the server's
        // own words follow.
        #expect(
            error.message.contains("no database connection for")
                || error.message.contains("the database did not answer within"), "\(error.message)")
        #expect(error.message.contains("a connection of its own to"), "\(error.message)")
        #expect(error.message.contains("purser_no_such_database\" does not exist"), "\(error.message)")
    }

    /// Through pgbouncer (`scripts/test.sh` runs this suite with `PURSER_TEST_DATABASE_POOLER=pgbouncer`): a further
    /// app's ledger, in a schema set by the search_path startup parameter, is refused by the pooler, and the error
    /// says so and what to do.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PURSER_TEST_DATABASE_POOLER"] == "pgbouncer"))
    func aPoolerThatRefusesTheSchemaOfAFurtherAppIsNamed() async throws {
        try await PostgresTestDatabase.withFreshDatabase(connectionWaitTimeout: .seconds(1)) { configuration, _ in
            let racers = try configuration.inSchema("app_com_example_racers")
            let error = try await Self.startError(racers)
            #expect(error.code == .unavailable)
            #expect(error.message.contains("unsupported startup parameter: search_path"), "\(error.message)")
            #expect(error.message.contains("not the pooler"), "\(error.message)")
        }
    }
}
