import Foundation
import PostgresNIO
import PurserStorageTesting
import Testing

@testable import PurserStorage

/// Ledgers written by every earlier schema version (`Tests/LedgerFixtures`, PostgreSQL's versions), each in a database
/// of its own, upgraded by today's store as a replica of `purser serve` migrates at start: every row kept, every
/// balance as the fixtures intend, everything readable.
@Suite(.enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.howToRun))
struct PostgresUpgradeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("LedgerFixtures")

    @Test(arguments: PostgresLedgerStore.migrations.map(\.version))
    func upgradesALedgerOfEachVersionKeepingEveryRow(version: Int) async throws {
        try await Self.upgrade { store in
            try await LedgerFixture.build(
                try LedgerFixture.history(in: Self.fixtures), version: version, on: .postgres,
                migrate: { try await store.migrate(through: $0) }, execute: Self.execute(store))
        }
    }

    /// Migration 6 reached main before migration 5 (merged at a86a1a9): the upgrade applies 5 after 6.
    @Test func upgradesALedgerThatGotMigration6Before5() async throws {
        try await Self.upgrade { store in
            let applied = try await LedgerFixture.build(
                try LedgerFixture.history(in: Self.fixtures), version: 4, on: .postgres,
                migrate: { try await store.migrate(through: $0) }, execute: Self.execute(store))
            try await store.migrate(through: 6, skipping: [5])
            return applied
        }
    }

    /// Builds an old ledger in a fresh database with `build`, then upgrades it with a second store (its own pool, as a
    /// new replica has) and checks it: no table lost a row, and `LedgerUpgradeCheck` finds nothing.
    static func upgrade(_ build: @escaping @Sendable (PostgresLedgerStore) async throws -> [LedgerFixture])
        async throws
    {
        try await PostgresTestDatabase.withFreshDatabase { configuration, _ in
            let (applied, before) = try await PostgresTestDatabase.withStores(1, configuration) { stores in
                (try await build(stores[0]), try await rowCounts(stores[0]))
            }
            try await PostgresTestDatabase.withStores(1, configuration) { stores in
                let store = stores[0]
                try await store.migrate()
                let after = try await rowCounts(store)
                for (table, rows) in before.sorted(by: { $0.key < $1.key }) where table != "schema_migrations" {
                    #expect(
                        after[table] == rows, "\(table): \(rows) rows before the upgrade, \(after[table] ?? 0) after")
                }
                let problems = try await LedgerUpgradeCheck(
                    store: store, fixtures: applied, outboxRows: after["outbox"] ?? 0
                ).run()
                #expect(problems == [], "\(problems.joined(separator: "\n"))")
            }
        }
    }

    static func execute(_ store: PostgresLedgerStore) -> @Sendable (String) async throws -> Void {
        { sql in
            try await store.inTransaction { connection in
                try await store.execute(connection, PostgresQuery(unsafeSQL: sql))
            }
        }
    }

    /// Rows per table of the ledger's schema.
    static func rowCounts(_ store: PostgresLedgerStore) async throws -> [String: Int] {
        try await store.withConnection { connection in
            let tables = try await store.rows(
                connection, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            ).map { try $0.decode(String.self) }
            var counts: [String: Int] = [:]
            for table in tables {
                let rows = try await store.rows(
                    connection, PostgresQuery(unsafeSQL: "SELECT COUNT(*)::BIGINT FROM \"\(table)\""))
                counts[table] = Int(try rows.first?.decode(Int64.self) ?? 0)
            }
            return counts
        }
    }
}
