import Foundation
import PostgresNIO
import PurserStorageTesting
import Testing

@testable import PurserStorage

/// A rolling deploy runs replicas of the previous release against the database today's release migrated (expand,
/// then contract a release later: see `PostgresLedgerStore.migrations`). Its store must keep working there: every
/// statement it runs still prepares, and the rows it writes still go in and read back through today's store.
@Suite(.enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.howToRun))
struct PostgresPreviousReleaseTests {
    static let fixtures = PostgresUpgradeTests.fixtures
    /// The schema version the previous release ran on: the newest with a fixture ledger (`v<N>.sql`), since a
    /// release adds the fixture of the schema before its own migrations (one release may add more than one, as
    /// migrations 14 and 15 came together).
    static let previous = (try? LedgerFixture.history(in: fixtures).compactMap { $0.versions[.postgres] }.max()) ?? 0

    /// Every statement of the previous release's store (`previous-release-postgres.sql`, printed from git history by
    /// `scripts/release-statements.py`) prepares against today's schema (PREPARE resolves every table, column,
    /// function and its argument types): a migration that drops, renames or changes what that release still uses
    /// fails here, in the release that does it.
    @Test func preparesEveryStatementOfThePreviousRelease() async throws {
        let release = try LedgerFixture(
            name: "previous-release-postgres.sql",
            text: String(
                contentsOf: Self.fixtures.appendingPathComponent("previous-release-postgres.sql"), encoding: .utf8))
        #expect(
            release.versions[.postgres] == Self.previous,
            """
            previous-release-postgres.sql holds the statements of schema \(release.versions[.postgres] ?? 0), the \
            previous release is \(Self.previous): print them again with scripts/release-statements.py COMMIT \
            postgres, COMMIT the last commit of schema \(Self.previous)
            """)
        #expect(release.statements.count > 40)
        try await PostgresTestDatabase.withFreshDatabase { configuration, _ in
            try await PostgresTestDatabase.withStores(1, configuration) { stores in
                let store = stores[0]
                try await store.migrate()
                for (number, statement) in release.statements(for: .postgres).enumerated() {
                    await #expect(throws: Never.self, "\(statement)") {
                        try await store.withConnection { connection in
                            try await store.execute(
                                connection, PostgresQuery(unsafeSQL: "PREPARE previous_\(number) AS \(statement)"))
                            try await store.execute(
                                connection, PostgresQuery(unsafeSQL: "DEALLOCATE previous_\(number)"))
                        }
                    }
                }
            }
        }
    }

    /// The rows the previous release wrote (its fixture) go into today's schema as that release wrote them, and
    /// today's store reads them back: balances, histories, events, the ledger check, and writes after them.
    @Test func takesThePreviousReleasesWritesAndReadsThemBack() async throws {
        let written = try LedgerFixture.history(in: Self.fixtures).filter { $0.versions[.postgres] == Self.previous }
        #expect(written.count == 1)
        try await PostgresTestDatabase.withFreshDatabase { configuration, _ in
            try await PostgresTestDatabase.withStores(1, configuration) { stores in
                let store = stores[0]
                try await store.migrate()
                // Already at today's version: no migration, the rows alone (a failure names the statement).
                _ = try await LedgerFixture.build(
                    written, version: .max, on: .postgres, migrate: { _ in },
                    execute: PostgresUpgradeTests.execute(store))
                let outbox = try await PostgresUpgradeTests.rowCounts(store)["outbox"] ?? 0
                let problems = try await LedgerUpgradeCheck(store: store, fixtures: written, outboxRows: outbox).run()
                #expect(problems == [], "\(problems.joined(separator: "\n"))")
            }
        }
    }
}
