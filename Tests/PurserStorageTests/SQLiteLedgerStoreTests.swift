import Foundation
import Logging
import PurserCore
import PurserStorage
import PurserStorageTesting
import Testing

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

    /// The shared conformance suite (PurserStorageTesting), including reads right after settlements under load.
    @Test func conformance() async throws {
        try await Self.withStore { store, _ in
            try await LedgerStoreConformance(store: store).runAll()
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
