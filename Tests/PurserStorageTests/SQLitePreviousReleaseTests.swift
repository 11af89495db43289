import Foundation
import Logging
import PurserStorageTesting
import Testing

@testable import PurserStorage

/// A rolling deploy runs replicas of the previous release on the schema today's release migrated to (expand, then
/// contract a release later: see `SQLiteLedgerStore.migrations`). Its store must keep working there: every statement
/// it runs still compiles, and the rows it writes still go in and read back through today's store.
@Suite struct SQLitePreviousReleaseTests {
    static let fixtures = SQLiteUpgradeTests.fixtures
    /// The schema version the previous release ran on: the newest with a fixture ledger (`v<N>.sql`), since a
    /// release adds the fixture of the schema before its own migrations (one release may add more than one, as
    /// migrations 14 and 15 came together).
    static let previous = (try? LedgerFixture.history(in: fixtures).compactMap { $0.versions[.sqlite] }.max()) ?? 0

    /// A ledger migrated to today's latest version.
    static func todaysLedger(in directory: URL) async throws -> SQLiteLedgerStore {
        let store = try await SQLiteLedgerStore.open(
            path: directory.appendingPathComponent("purser.sqlite").path, logger: SQLiteUpgradeTests.logger)
        try await store.migrate()
        return store
    }

    /// Every statement of the previous release's store (`previous-release-sqlite.sql`, printed from git history by
    /// `scripts/release-statements.py`) compiles against today's schema: a migration that drops or renames a table or
    /// column that release still reads or writes fails here, in the release that does it, not in production.
    @Test func compilesEveryStatementOfThePreviousRelease() async throws {
        let release = try LedgerFixture(
            name: "previous-release-sqlite.sql",
            text: String(
                contentsOf: Self.fixtures.appendingPathComponent("previous-release-sqlite.sql"), encoding: .utf8))
        #expect(
            release.versions[.sqlite] == Self.previous,
            """
            previous-release-sqlite.sql holds the statements of schema \(release.versions[.sqlite] ?? 0), the previous \
            release is \(Self.previous): print them again with scripts/release-statements.py COMMIT sqlite, COMMIT \
            the last commit of schema \(Self.previous)
            """)
        #expect(release.statements.count > 40)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-previous-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await Self.todaysLedger(in: directory)
        for statement in release.statements(for: .sqlite) {
            // EXPLAIN compiles the statement (every table, column and function it names) and runs nothing.
            await #expect(throws: Never.self, "\(statement)") {
                try await store.write { _ = try $0.query("EXPLAIN " + statement) }
            }
        }
        try await store.close()
    }

    /// The rows the previous release wrote (its fixture, `v<previous>.sql`) go into today's schema as that release's
    /// statements wrote them, and today's store reads them back: balances, histories, events, the ledger check.
    @Test func takesThePreviousReleasesWritesAndReadsThemBack() async throws {
        let written = try LedgerFixture.history(in: Self.fixtures).filter { $0.versions[.sqlite] == Self.previous }
        #expect(written.count == 1)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-previous-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await Self.todaysLedger(in: directory)
        // Already at today's version: no migration, the rows alone (a failure names the statement).
        _ = try await LedgerFixture.build(
            written, version: .max, on: .sqlite, migrate: { _ in }, execute: SQLiteUpgradeTests.execute(store))
        let outbox = try await SQLiteUpgradeTests.rowCounts(store)["outbox"] ?? 0
        let problems = try await LedgerUpgradeCheck(store: store, fixtures: written, outboxRows: outbox).run()
        #expect(problems == [], "\(problems.joined(separator: "\n"))")
        try await store.close()
    }
}
