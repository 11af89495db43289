import Foundation
import PostgresNIO
import PurserCore
import PurserStorageTesting
import Testing

@testable import PurserStorage

/// The PostgreSQL ledger against a real server, each test in a database of its own.
@Suite(.enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.howToRun))
struct PostgresLedgerStoreTests {
    /// The shared conformance suite (PurserStorageTesting), the same checks SQLite passes. Reads-after-settlement
    /// runs 100 rounds, not 400: each round is a dozen round trips to the server against six busy readers (about a
    /// minute on a loaded 2-core machine at 400), and the SQLite failure it was written for (one read snapshot shared
    /// in-process) has no counterpart in a pool of separate sessions.
    @Test func conformance() async throws {
        try await PostgresTestDatabase.withFreshDatabase { configuration, _ in
            try await PostgresTestDatabase.withStores(1, configuration) { stores in
                try await stores[0].migrate()
                try await LedgerStoreConformance(
                    store: stores[0], debit: Self.debit(stores[0]), corrupt: Self.corrupt(stores[0])
                ).runAll(visibilityRounds: 100)
            }
        }
    }

    /// One SQL statement on the ledger's tables (LedgerStoreConformance.Corrupt).
    static func corrupt(_ store: PostgresLedgerStore) -> LedgerStoreConformance.Corrupt {
        { sql in
            try await store.inTransaction { connection in
                try await store.execute(connection, PostgresQuery(unsafeSQL: sql))
            }
        }
    }

    /// A `debit` grant row written straight to the ledger (LedgerStoreConformance.Debit).
    static func debit(_ store: PostgresLedgerStore) -> LedgerStoreConformance.Debit {
        { transactionID, user, currency, amount in
            try await store.inTransaction { connection in
                try await store.execute(
                    connection,
                    """
                    INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at)
                    VALUES (\(transactionID), \(user.rawValue), \(currency), \(-amount), 'debit', 0)
                    """)
            }
        }
    }

    /// What only several writers break, through two stores with two connection pools, as two replicas have.
    @Test func sharedConformance() async throws {
        try await PostgresTestDatabase.withFreshDatabase { configuration, _ in
            try await PostgresTestDatabase.withStores(2, configuration) { stores in
                try await SharedLedgerConformance(stores: stores).runAll()
            }
        }
    }

    /// Three replicas restarting into an existing ledger: nothing is applied again and nothing is lost.
    @Test func migratesAnExistingLedgerWithoutTouchingIt() async throws {
        try await PostgresTestDatabase.withFreshDatabase { configuration, _ in
            try await PostgresTestDatabase.withStores(1, configuration) { stores in
                try await stores[0].migrate()
                try await LedgerStoreConformance(store: stores[0]).creditsOnceAndRecordsEverything()
            }
            try await PostgresTestDatabase.withStores(3, configuration) { stores in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for store in stores { group.addTask { try await store.migrate() } }
                    try await group.waitForAll()
                }
                #expect(try await stores[2].balances(of: "alice") == ["gold": 60])
                #expect(try await stores[1].statistics().creditedTransactions == 1)
            }
        }
    }
}
