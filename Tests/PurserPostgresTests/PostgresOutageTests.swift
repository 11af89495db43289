import Foundation
import PostgresNIO
import PurserCore
import PurserStorage
import Testing

/// Connection trouble is `storage_unavailable` (not a decision, never a crash), and the same store works again once
/// the database is back, without being reopened.
@Suite(.enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.howToRun))
struct PostgresOutageTests {
    let now = Date(timeIntervalSince1970: 1_704_067_200)
    let gold = ProductDefinition(id: "gold60", type: .consumable, grants: Grants(["gold": 60]))

    func submission(_ id: String, for order: Order) -> Submission {
        Submission(
            transaction: AppleTransaction(
                transactionID: id, originalTransactionID: id, bundleID: "b", productID: "gold60", type: "Consumable",
                quantity: 1, purchaseDate: now, appAccountToken: order.id, environment: .sandbox),
            assessment: .creditable(gold), source: .client(order.userID))
    }

    /// A settlement stopped midway inside its database transaction (another session holds the order's row lock)
    /// when `pg_terminate_backend` kills the store's connections: it throws `storage_unavailable`, nothing is
    /// written, and the next settlement through the same store is delivered.
    @Test func aConnectionKilledMidFlightIsUnavailableAndTheStoreCarriesOn() async throws {
        let application = "purser-midflight-\(UUID().uuidString.prefix(8))"
        try await PostgresTestDatabase.withFreshDatabase(applicationName: application) { configuration, _ in
            try await PostgresTestDatabase.withStores(1, configuration) { stores in
                let store = stores[0]
                try await store.migrate()
                let order = Order(id: .random(), userID: "olga", productID: "gold60", quantity: 1, createdAt: now)
                try await store.createOrder(order)
                let submission = submission("t-midflight", for: order)
                var blocker = configuration
                blocker.client.options.additionalStartupParameters = [("application_name", "purser-test-blocker")]
                let outcome = try await PostgresTestDatabase.withAdmin(blocker) { admin in
                    try await admin.withConnection { locker in
                        _ = try await locker.query("BEGIN", logger: PostgresTestDatabase.logger).collect()
                        _ = try await locker.query(
                            "SELECT 1 FROM orders WHERE id = \(order.id.description) FOR UPDATE",
                            logger: PostgresTestDatabase.logger
                        ).collect()
                        async let settling = Self.outcome { try await store.settle(submission, now: now) }
                        let killed = await Self.outcome { try await Self.killOnceBlocked(application, admin: admin) }
                        // Released whatever happened, so that a settlement that was never killed can finish.
                        _ = try await locker.query("ROLLBACK", logger: PostgresTestDatabase.logger).collect()
                        let outcome = await settling
                        try killed.get()
                        return outcome
                    }
                }
                #expect(outcome.error?.code == .unavailable, "got \(outcome)")
                #expect(try await store.transaction("t-midflight") == nil, "the killed settlement wrote nothing")
                #expect(try await store.settle(submission, now: now).decision == .delivered)
                #expect(try await store.balances(of: "olga") == ["gold": 60])
            }
        }
    }

    /// The database refuses connections (`ALLOW_CONNECTIONS false`) and the store's sessions are terminated: a
    /// settlement throws `storage_unavailable` within the store's connection wait, and once the database is back the
    /// same store settles again (after the pool's reconnect backoff).
    @Test func aDatabaseGoneIsUnavailableUntilItIsBack() async throws {
        let wait = Duration.seconds(2)
        try await PostgresTestDatabase.withFreshDatabase(connectionWaitTimeout: wait) { configuration, name in
            try await PostgresTestDatabase.withStores(1, configuration) { stores in
                let store = stores[0]
                try await store.migrate()
                let order = Order(id: .random(), userID: "pavel", productID: "gold60", quantity: 1, createdAt: now)
                try await store.createOrder(order)
                let submission = submission("t-outage", for: order)
                try await PostgresTestDatabase.withAdmin { admin in
                    try await admin.perform("ALTER DATABASE \(unescaped: name) ALLOW_CONNECTIONS false")
                    try await admin.perform(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = \(name)")
                }
                let clock = ContinuousClock()
                let start = clock.now
                let during = await Self.outcome { try await store.settle(submission, now: now) }
                let failedAfter = clock.now - start
                #expect(during.error?.code == .unavailable, "got \(during)")
                #expect(failedAfter < wait + .seconds(3), "failed after \(failedAfter)")

                try await PostgresTestDatabase.withAdmin { admin in
                    try await admin.perform("ALTER DATABASE \(unescaped: name) ALLOW_CONNECTIONS true")
                }
                let back = clock.now
                var decision: Decision?
                while decision == nil, clock.now - back < .seconds(30) {
                    switch await Self.outcome({ try await store.settle(submission, now: now) }) {
                    case .success(let settlement): decision = settlement.decision
                    case .failure(let error):
                        #expect((error as? StorageError)?.code == .unavailable, "while reconnecting: \(error)")
                        try await Task.sleep(for: .milliseconds(200))
                    }
                }
                print(
                    "outage: the settlement failed after \(failedAfter);",
                    "the store settled again \(clock.now - back) after the database was back")
                #expect(decision == .delivered)
                #expect(try await store.balances(of: "pavel") == ["gold": 60])
            }
        }
    }

    /// Polls (up to 20 s) until a session named `application` waits for a lock, then terminates every session of
    /// that name and waits (up to 10 s) until they are gone; records an issue if none ever waits.
    static func killOnceBlocked(_ application: String, admin: PostgresClient) async throws {
        for _ in 0..<400 {
            let waiting = try await admin.perform(
                """
                SELECT 1 FROM pg_stat_activity WHERE application_name = \(application) AND wait_event_type = 'Lock'
                """)
            if !waiting.isEmpty {
                try await admin.perform(
                    """
                    SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity
                    WHERE application_name = \(application)
                    """)
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the settlement never blocked on the order's row lock")
    }

    static func outcome<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
}

extension Result {
    var error: StorageError? {
        if case .failure(let error) = self { return error as? StorageError }
        return nil
    }
}
