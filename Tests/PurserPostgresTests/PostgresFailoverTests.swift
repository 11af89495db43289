import AppStoreSimulator
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserChaos
import PurserCore
import PurserServer
import PurserStorage
import Synchronization
import Testing

/// A multi-host `database.url` on a real primary and its synchronous standby (`PostgresPair`): the store finds the
/// writable server whatever the URL's order, and when the primary dies (SIGKILL) and the standby is promoted, the
/// whole server answers 503 `storage_unavailable` in the gap, then serves again by itself from the new primary, which
/// holds every decision a client was given.
@Suite(.enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.howToRun))
struct PostgresFailoverTests {
    static let purchases = 80
    static let clients = 8

    @Test func connectsToThePrimaryWhicheverHostComesFirst() async throws {
        try await Self.withPair { pair in
            let both = try Self.configuration(pair.url(standbyFirst: true))
            let written = Order(id: .random(), userID: "ines", productID: "gold60", quantity: 1, createdAt: Date())
            try await PostgresTestDatabase.withStores(1, both) { stores in
                try await stores[0].migrate()
                #expect(stores[0].databaseServer.server?.port == pair.primaryPort)
                #expect(stores[0].databaseServer.choices == 1)
                try await stores[0].createOrder(written)
                #expect(try await stores[0].order(written.id) != nil)
            }
            // The standby alone (one host, target_session_attrs any) reads, once it has replayed the order, and refuses
            // a write: storage_unavailable (SQLSTATE 25006, a read-only transaction), which a client retries, not a
            // failed query answered 500.
            let standby = try Self.configuration(pair.standbyURL)
            try await PostgresTestDatabase.withStores(1, standby) { stores in
                let clock = ContinuousClock()
                let start = clock.now
                while (try? await stores[0].order(written.id)) == nil, clock.now - start < .seconds(30) {
                    try await Task.sleep(for: .milliseconds(50))
                }
                let order = Order(id: .random(), userID: "ines", productID: "gold60", quantity: 1, createdAt: Date())
                await #expect(throws: StorageError(.unavailable, "")) { try await stores[0].createOrder(order) }
                #expect(stores[0].databaseServer.choices == 0)
            }
        }
    }

    @Test func theServerFailsOverByItselfAndKeepsEveryDecision() async throws {
        try await Self.withPair { pair in
            let (assembly, appStore) = try await PostgresTestDatabase.server(
                on: try Self.configuration(pair.url(standbyFirst: false)))
            let tally = PostgresRestartUnderLoadTests.Tally()
            let moments = Moments()
            try await assembly.application().test(.live) { client in
                let payments = try await PostgresRestartUnderLoadTests.alicesPayments(
                    Self.purchases, client: client, appStore: appStore)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        // The primary's machine is lost after the first decisions; the standby is promoted a moment
                        // later, as an operator or a failover manager would.
                        while tally.done.load(ordering: .relaxed) < 20 { try await Task.sleep(for: .milliseconds(5)) }
                        pair.killPrimary()
                        moments.killed.withLock { $0 = .now }
                        tally.cut.store(true, ordering: .relaxed)
                        try await Task.sleep(for: .milliseconds(500))
                        try await pair.promoteStandby()
                    }
                    for worker in 0..<Self.clients {
                        group.addTask {
                            for index in stride(from: worker, to: payments.count, by: Self.clients) {
                                // Submissions past the 40th wait for the kill, so that some surely meet the gap.
                                while tally.done.load(ordering: .relaxed) >= 40, !tally.cut.load(ordering: .relaxed) {
                                    try await Task.sleep(for: .milliseconds(5))
                                }
                                let started = ContinuousClock.now
                                let status = try await PostgresRestartUnderLoadTests.submitUntilDecided(
                                    payments[index], client: client
                                ) { status in tally.statuses.withLock { $0[status, default: 0] += 1 } }
                                #expect(status == .ok)
                                // The gap ends with the first decision of a submission sent after the kill.
                                if let killed = moments.killed.withLock({ $0 }), started > killed {
                                    moments.firstDecisionAfter.withLock { $0 = min($0 ?? .now, .now) }
                                }
                                tally.done.add(1, ordering: .relaxed)
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                let wallet = try await client.execute(
                    uri: "/v1/wallet", method: .get, headers: [HTTPField.Name("X-Purser-User")!: "alice"])
                let balances = try JSONSerialization.jsonObject(with: Data(String(buffer: wallet.body).utf8))
                #expect((balances as? [String: Any])?["balances"] as? [String: Int] == ["gold": Self.purchases * 60])
            }
            let seen = tally.statuses.withLock { $0 }
            #expect(Set(seen.keys).isSubset(of: [200, 503]), "only decisions and 503s: \(seen)")
            #expect((seen[503] ?? 0) > 0, "the failover refused some submissions: \(seen)")
            if let killed = moments.killed.withLock({ $0 }), let back = moments.firstDecisionAfter.withLock({ $0 }) {
                print("PostgresFailoverTests: first decision \(back - killed) after the kill (promotion after 0.5 s)")
            }
            // The new primary, read on its own: every purchase credited once (a decision acknowledged before the kill
            // and lost would be missing: its client got a 200 and never retried), and the ledger's rules hold.
            let primary = try Self.configuration(pair.primaryURL)
            let (statistics, integrity) = try await PostgresTestDatabase.withStores(1, primary) { stores in
                (try await stores[0].statistics(), try await stores[0].integrity())
            }
            #expect(statistics.creditedTransactions == Self.purchases)
            #expect(integrity.findings == [])
        }
    }

    /// When the primary was killed, and when the first decision after it came.
    final class Moments: Sendable {
        let killed = Mutex<ContinuousClock.Instant?>(nil)
        let firstDecisionAfter = Mutex<ContinuousClock.Instant?>(nil)
    }

    static func configuration(_ url: String) throws -> PostgresLedgerStore.Configuration {
        try PostgresLedgerStore.Configuration(
            url: url, applicationName: "purser-failover-test", connectionWaitTimeout: .seconds(2))
    }

    /// A primary and a synchronous standby of their own for `body`, stopped and deleted afterwards.
    static func withPair<T>(_ body: (PostgresPair) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-pair-\(UUID())")
        let pair = try await PostgresPair.start(in: directory)
        do {
            let result = try await body(pair)
            await pair.stop()
            return result
        } catch {
            await pair.stop()
            throw error
        }
    }
}
