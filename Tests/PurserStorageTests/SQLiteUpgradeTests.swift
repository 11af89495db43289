import Foundation
import Logging
import PurserStorageTesting
import Testing

@testable import PurserStorage

/// Ledgers written by every earlier schema version (`Tests/LedgerFixtures`), upgraded by today's store as `purser
/// serve` opens them: every row kept, every balance as the fixtures intend, everything readable.
@Suite struct SQLiteUpgradeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("LedgerFixtures")
    static var logger: Logger {
        var logger = Logger(label: "purser.upgrade-tests")
        logger.logLevel = .warning
        return logger
    }

    @Test(arguments: SQLiteLedgerStore.migrations.map(\.version))
    func upgradesALedgerOfEachVersionKeepingEveryRow(version: Int) async throws {
        try await Self.upgrade { store in
            try await LedgerFixture.build(
                try LedgerFixture.history(in: Self.fixtures), version: version, on: .sqlite,
                migrate: { try await store.migrate(through: $0) }, execute: Self.execute(store))
        }
    }

    /// Migration 6 reached main before migration 5 (two branches, merged at a86a1a9): a ledger of that main had 1-4
    /// and 6, and the upgrade applies 5 after 6.
    @Test func upgradesALedgerThatGotMigration6Before5() async throws {
        try await Self.upgrade { store in
            let applied = try await LedgerFixture.build(
                try LedgerFixture.history(in: Self.fixtures), version: 4, on: .sqlite,
                migrate: { try await store.migrate(through: $0) }, execute: Self.execute(store))
            try await store.migrate(through: 6, skipping: [5])
            return applied
        }
    }

    /// Builds an old ledger with `build` (returning the fixtures it applied), closes it, opens it again and migrates it
    /// as `serve` does, and checks it: no table lost a row, and `LedgerUpgradeCheck` finds nothing.
    static func upgrade(_ build: (SQLiteLedgerStore) async throws -> [LedgerFixture]) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-upgrade-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("purser.sqlite").path
        let old = try await SQLiteLedgerStore.open(path: path, logger: logger)
        let applied = try await build(old)
        let before = try await rowCounts(old)
        try await old.close()

        let store = try await SQLiteLedgerStore.open(path: path, logger: logger)
        try await store.migrate()
        let after = try await rowCounts(store)
        for (table, rows) in before.sorted(by: { $0.key < $1.key }) where table != "schema_migrations" {
            #expect(after[table] == rows, "\(table): \(rows) rows before the upgrade, \(after[table] ?? 0) after")
        }
        let versions = Set(SQLiteLedgerStore.migrations.map(\.version))
        #expect(try await migrated(store) == versions)
        let problems = try await LedgerUpgradeCheck(
            store: store, fixtures: applied, outboxRows: after["outbox"] ?? 0
        ).run()
        #expect(problems == [], "\(problems.joined(separator: "\n"))")
        try await store.close()
    }

    static func execute(_ store: SQLiteLedgerStore) -> (String) async throws -> Void {
        { sql in try await store.write { try $0.execute(sql) } }
    }

    /// Rows per table, every table of the file.
    static func rowCounts(_ store: SQLiteLedgerStore) async throws -> [String: Int] {
        try await store.reading { database in
            let tables = try database.query(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            ).map { try $0.text("name") }
            var counts: [String: Int] = [:]
            for table in tables {
                counts[table] = try database.query("SELECT COUNT(*) AS n FROM \"\(table)\"").first?.int("n")
            }
            return counts
        }
    }

    static func migrated(_ store: SQLiteLedgerStore) async throws -> Set<Int> {
        Set(try await store.read("SELECT version FROM schema_migrations", []).map { try $0.int("version") })
    }
}
