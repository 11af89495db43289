import AppStoreSimulator
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PostgresNIO
import PurserCore
import PurserServer
import PurserStorage
import Synchronization
import Testing

/// The database restarting under load, as the server's clients see it: every connection terminated in the middle of
/// settlements, new ones refused for a while, then accepted again. Eight clients submitting at the same time get only
/// decisions or 503 `storage_unavailable` (never a 500), the server recovers by itself, and once every client has
/// retried its refused submissions each purchase is credited exactly once.
@Suite(.enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.howToRun))
struct PostgresRestartUnderLoadTests {
    static let purchases = 120
    static let clients = 8

    @Test func submissionsDuringARestartAreDecidedOnceOrRefusedWith503() async throws {
        try await PostgresTestDatabase.withFreshDatabase(connectionWaitTimeout: .seconds(2)) { configuration, name in
            let (assembly, appStore) = try await PostgresTestDatabase.server(on: configuration)
            let tally = Tally()
            try await assembly.application().test(.live) { client in
                let payments = try await Self.alicesPayments(Self.purchases, client: client, appStore: appStore)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        // The restart: after the first answers, cut every session and refuse new ones for a while.
                        while tally.done.load(ordering: .relaxed) < 20 { try await Task.sleep(for: .milliseconds(5)) }
                        try await PostgresTestDatabase.withAdmin { admin in
                            try await admin.perform("ALTER DATABASE \(unescaped: name) ALLOW_CONNECTIONS false")
                            try await admin.perform(
                                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = \(name)")
                        }
                        tally.cut.store(true, ordering: .relaxed)
                        // Longer than the pool's connection wait (2 s): a submission that waits for a connection gets 503.
                        try await Task.sleep(for: .seconds(3))
                        try await PostgresTestDatabase.withAdmin { admin in
                            try await admin.perform("ALTER DATABASE \(unescaped: name) ALLOW_CONNECTIONS true")
                        }
                    }
                    for worker in 0..<Self.clients {
                        group.addTask {
                            for index in stride(from: worker, to: payments.count, by: Self.clients) {
                                // Submissions 20 to 60 race the cut; the rest wait for it, so that some surely meet
                                // the database gone, however fast this machine settles.
                                while tally.done.load(ordering: .relaxed) >= 60, !tally.cut.load(ordering: .relaxed) {
                                    try await Task.sleep(for: .milliseconds(5))
                                }
                                let status = try await Self.submitUntilDecided(payments[index], client: client) {
                                    status in tally.statuses.withLock { $0[status, default: 0] += 1 }
                                }
                                #expect(status == .ok)
                                tally.done.add(1, ordering: .relaxed)
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                // Each purchase credited exactly once: the wallet holds one grant per purchase, no more.
                let wallet = try await client.execute(
                    uri: "/v1/wallet", method: .get, headers: [HTTPField.Name("X-Purser-User")!: "alice"])
                let balances = try JSONSerialization.jsonObject(with: Data(String(buffer: wallet.body).utf8))
                #expect((balances as? [String: Any])?["balances"] as? [String: Int] == ["gold": Self.purchases * 60])
            }
            let seen = tally.statuses.withLock { $0 }
            #expect(Set(seen.keys).isSubset(of: [200, 503]), "only decisions and 503s: \(seen)")
            #expect((seen[503] ?? 0) > 0, "the restart refused some submissions: \(seen)")
        }
    }

    /// Alice's `count` orders, each paid at the simulated App Store with the order's token: the signed transactions.
    static func alicesPayments(_ count: Int, client: some TestClientProtocol, appStore: SimulatedAppStore)
        async throws -> [String]
    {
        var signed: [String] = []
        for _ in 0..<count {
            let response = try await client.execute(
                uri: "/v1/orders", method: .post,
                headers: [.contentType: "application/json", HTTPField.Name("X-Purser-User")!: "alice"],
                body: ByteBuffer(string: #"{"productId": "gold60"}"#))
            let order =
                try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8)) as? [String: Any]
            signed.append(
                try await appStore.purchase(
                    .init(productId: "gold60", appAccountToken: order?["appAccountToken"] as? String)
                ).signed)
        }
        return signed
    }

    /// Submits as alice until the answer is not a 503 (a client keeps its transaction and retries); reports each
    /// answer's status to `seen`, and returns the last.
    static func submitUntilDecided(
        _ jws: String, client: some TestClientProtocol, seen: @Sendable (Int) -> Void
    ) async throws -> HTTPResponse.Status {
        let headers: HTTPFields = [.contentType: "application/json", HTTPField.Name("X-Purser-User")!: "alice"]
        let clock = ContinuousClock()
        let start = clock.now
        while true {
            let response = try await client.execute(
                uri: "/v1/transactions", method: .post, headers: headers,
                body: ByteBuffer(string: #"{"signedTransaction": "\#(jws)"}"#))
            seen(Int(response.status.code))
            guard response.status == .serviceUnavailable, clock.now - start < .seconds(120) else {
                return response.status
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// What the clients saw: how many answers of each status, and how many submissions were decided.
    final class Tally: Sendable {
        let statuses = Mutex<[Int: Int]>([:])
        let done = Atomic<Int>(0)
        let cut = Atomic<Bool>(false)
    }
}
