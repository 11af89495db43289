import Foundation
import Logging
import PurserChaos
import PurserStorage
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The server guide's "Replicas" (PurserServer.docc): one `purser appstore-sim`, two `purser serve` on one database, each
/// started as the guide says. Needs `PURSER_TEST_DATABASE_URL` (scripts/test.sh starts a private PostgreSQL).
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["PURSER_TEST_DATABASE_URL"] != nil,
        "set PURSER_TEST_DATABASE_URL (scripts/postgres.sh start DIR prints one) to run"))
struct ReplicasCommandTests {
    let serve = ServeCommandTests()

    @Test func twoReplicasShareOneLedgerAndOneSimulator() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try #require(ProcessInfo.processInfo.environment["PURSER_TEST_DATABASE_URL"])
        let name = "purser_replicas_" + String(UInt64.random(in: .min ... .max), radix: 16)
        let logger = Logger(label: "test")
        let database = try await PostgresLedgerStore.createDatabase(name, besides: server, logger: logger)
        defer { Task { try? await PostgresLedgerStore.dropDatabase(name, besides: server, logger: logger) } }
        let (simulator, simulatorURL) = try await serve.startSimulator(in: directory)
        defer { simulator.terminate() }
        let environment = [
            "PURSER_DATABASE_URL": database, "PURSER_SIMULATOR_URL": simulatorURL,
            "PURSER_ADMIN_TOKEN": "support-token-r",
        ]
        var replicas: [(ChildProcess, Int)] = []
        for index in 1...2 {
            replicas.append(
                try await serve.launch(
                    [
                        "serve", "--port", "0", "--appstore", "simulator", "--auth", "development",
                        "--data-dir", directory.appendingPathComponent("replica-\(index)").path,
                        "--catalog", directory.appendingPathComponent("catalog.json").path,
                        "--bundle-id", "com.example.purser.demo",
                    ], environment: environment))
        }
        defer { for (process, _) in replicas { process.terminate() } }
        let first = "http://127.0.0.1:\(replicas[0].1)"
        let second = "http://127.0.0.1:\(replicas[1].1)"
        let sim = simulatorURL

        // An order made on one replica, paid at "Apple", submitted to the other: one ledger, one decision.
        let (_, order) = try await serve.request(
            "POST", "\(first)/v1/orders", user: "alice", json: #"{"productId": "gold60"}"#)
        let token = try #require(order["appAccountToken"] as? String)
        let (_, purchase) = try await serve.request(
            "POST", "\(sim)/simulator/v1/purchases",
            json: #"{"productId": "gold60", "appAccountToken": "\#(token)"}"#)
        let jws = try #require(purchase["signedTransaction"] as? String)
        let (status, decision) = try await serve.request(
            "POST", "\(second)/v1/transactions", user: "alice", json: #"{"signedTransaction": "\#(jws)"}"#)
        #expect(status == 200)
        #expect(decision["decision"] as? String == "delivered")
        let (_, again) = try await serve.request(
            "POST", "\(first)/v1/transactions", user: "bob", json: #"{"signedTransaction": "\#(jws)"}"#)
        #expect(again["decision"] as? String == "deliveredToOtherAccount")
        for base in [first, second] {
            let (_, wallet) = try await serve.request("GET", "\(base)/v1/wallet", user: "alice")
            #expect((wallet["balances"] as? [String: Int])?["gold"] == 60)
        }
        // Each replica calls Apple's Server API with a key of its own, registered under its own id: with one id for
        // both, the second registration replaced the first key and the first replica's calls were refused (401).
        let id = try #require(purchase["transactionId"] as? String)
        for base in [first, second] {
            let (status, view) = try await serve.request(
                "GET", "\(base)/admin/v1/transactions/\(id)", bearer: "support-token-r")
            #expect(status == 200 && view["apple"] as? String == "charged", "\(base): \(view)")
        }
    }
}
