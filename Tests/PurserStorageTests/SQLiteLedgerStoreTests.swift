import Foundation
import Logging
import PurserCore
import PurserStorageTesting
import Testing

@testable import PurserStorage

@Suite struct SQLiteLedgerStoreTests {
    static func withStore(_ body: (SQLiteLedgerStore, String) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-storage-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("purser.sqlite").path
        let store = try await SQLiteLedgerStore.open(path: path, logger: Logger(label: "test"))
        try await store.migrate()
        do {
            try await body(store, path)
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
    }

    /// A `debit` grant row written straight to the ledger (LedgerStoreConformance.Debit).
    static func debit(_ store: SQLiteLedgerStore) -> LedgerStoreConformance.Debit {
        { transactionID, user, currency, amount in
            try await store.write { database in
                _ = try database.query(
                    """
                    INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at)
                    VALUES (?, ?, ?, ?, 'debit', 0)
                    """, [.text(transactionID), .text(user.rawValue), .text(currency), .integer(Int(-amount))])
            }
        }
    }

    /// One SQL statement on the ledger's tables (LedgerStoreConformance.Corrupt).
    static func corrupt(_ store: SQLiteLedgerStore) -> LedgerStoreConformance.Corrupt {
        { sql in try await store.write { database in _ = try database.query(sql, []) } }
    }

    /// The shared conformance suite (PurserStorageTesting), including reads right after settlements under load.
    @Test func conformance() async throws {
        try await Self.withStore { store, _ in
            try await LedgerStoreConformance(store: store, debit: Self.debit(store), corrupt: Self.corrupt(store))
                .runAll()
        }
    }

    @Test func survivesReopeningAndMigratesOnlyOnce() async throws {
        try await Self.withStore { store, path in
            let suite = LedgerStoreConformance(store: store)
            try await suite.creditsOnceAndRecordsEverything()
            let reopened = try await SQLiteLedgerStore.open(path: path, logger: Logger(label: "test"))
            try await reopened.migrate()
            #expect(try await reopened.balances(of: "alice") == ["gold": 60])
            #expect(try await reopened.statistics().creditedTransactions == 1)
            try await reopened.close()
        }
    }
}

/// Two stores on one SQLite file, as two processes would open it: SQLite's file lock (`BEGIN IMMEDIATE` with a busy
/// timeout) serialises their writers.
@Suite struct SQLiteSharedLedgerTests {
    @Test func sharedConformance() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-shared-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("purser.sqlite").path
        var stores: [SQLiteLedgerStore] = []
        for _ in 0..<2 { stores.append(try await SQLiteLedgerStore.open(path: path, logger: Logger(label: "test"))) }
        do {
            try await SharedLedgerConformance(stores: stores).runAll()
        } catch {
            for store in stores { try? await store.close() }
            throw error
        }
        for store in stores { try await store.close() }
    }
}
