import Foundation
import Logging
import PurserChaos
import PurserCore
import PurserServer
import PurserStorage
import Testing

/// A studio on PostgreSQL: two `purser serve` replicas with two apps on one database, each app's ledger in a schema
/// of its own (`app_BUNDLE_ID`; the first app's in the database's default schema), one external simulator.
extension ReplicasCommandTests {
    @Test func aStudiosReplicasShareEachAppsLedgerInItsOwnSchema() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try #require(ProcessInfo.processInfo.environment["PURSER_TEST_DATABASE_URL"])
        let name = "purser_studio_" + String(UInt64.random(in: .min ... .max), radix: 16)
        let logger = Logger(label: "test")
        let database = try await PostgresLedgerStore.createDatabase(name, besides: server, logger: logger)
        defer { Task { try? await PostgresLedgerStore.dropDatabase(name, besides: server, logger: logger) } }
        let (simulator, simulatorURL) = try await serve.startSimulator(in: directory)
        defer { simulator.terminate() }
        let config = try serve.writeStudio(in: directory, apps: [ServeCommandTests.dragons, ServeCommandTests.racers])
        let environment = ["PURSER_DATABASE_URL": database, "PURSER_SIMULATOR_URL": simulatorURL]
        var replicas: [(ChildProcess, Int)] = []
        for _ in 1...2 {
            replicas.append(try await serve.launch(["serve", "--config", config.path], environment: environment))
        }
        defer { for (process, _) in replicas { process.terminate() } }
        let (first, second) = ("http://127.0.0.1:\(replicas[0].1)", "http://127.0.0.1:\(replicas[1].1)")
        let racers = ServeCommandTests.racers

        // Ordered on one replica, paid for Racers at "Apple", submitted to the other as Racers.
        let (_, order) = try await serve.request(
            "POST", "\(first)/v1/orders", app: racers, user: "kim", json: #"{"productId": "gems10"}"#)
        let token = try #require(order["appAccountToken"] as? String)
        let (_, purchase) = try await serve.request(
            "POST", "\(simulatorURL)/simulator/v1/purchases",
            json: #"{"productId": "gems10", "appAccountToken": "\#(token)", "bundleId": "\#(racers)"}"#)
        let jws = try #require(purchase["signedTransaction"] as? String)
        let id = try #require(purchase["transactionId"] as? String)
        let (status, decision) = try await serve.request(
            "POST", "\(second)/v1/transactions", app: racers, user: "kim",
            json: #"{"signedTransaction": "\#(jws)"}"#)
        #expect(status == 200 && decision["decision"] as? String == "delivered", "\(decision)")
        let (_, wallet) = try await serve.request("GET", "\(first)/v1/wallet", app: racers, user: "kim")
        #expect(wallet["balances"] as? [String: Int] == ["gems": 10])
        let (_, dragons) = try await serve.request(
            "GET", "\(second)/v1/wallet", app: ServeCommandTests.dragons, user: "kim")
        #expect((dragons["balances"] as? [String: Int] ?? [:]).isEmpty)

        // In the database: Racers' schema holds the transaction; the first app's default schema does not.
        let configuration = try PostgresLedgerStore.Configuration(url: database)
        let own = PostgresLedgerStore(
            configuration: try configuration.inSchema(ServerConfiguration.postgresSchema(forApp: racers)),
            logger: logger)
        #expect(try await own.whileRunning { try await own.transaction(id)?.state } == .credited)
        let home = PostgresLedgerStore(configuration: configuration, logger: logger)
        #expect(try await home.whileRunning { try await home.transaction(id) } == nil)
    }
}
