import Foundation
import Logging
import PurserChaos
import Testing

@testable import PurserStorage

/// `purser ledger check` on the ledger of a running `purser serve`: exit 0 and what it checked while every rule holds,
/// exit 1 naming the row once one is broken.
@Suite struct LedgerCheckCommandTests {
    let serve = ServeCommandTests()

    @Test func checksALiveLedgerAndNamesABrokenRow() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try await serve.simulatedServe(in: directory)
        defer { setup.simulator.terminate() }
        let (data, simulatorURL) = (setup.data, setup.simulatorURL)
        let (server, port) = try await serve.launch(setup)
        defer { server.terminate() }
        let base = "http://127.0.0.1:\(port)"
        let (jws, id) = try await serve.buyGold60(as: "ada", at: base, simulator: simulatorURL)
        let (status, _) = try await serve.request(
            "POST", "\(base)/v1/transactions", user: "ada", json: #"{"signedTransaction": "\#(jws)"}"#)
        #expect(status == 200)

        let clean = try await PurserProcess.run(["ledger", "check", "--data-dir", data.path])
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.contains("checked: 1 credited transactions, 1 orders, 0 wallet transactions"))
        #expect(clean.stdout.contains("balances' totals: gold 60"))
        #expect(clean.stdout.contains("ok: every rule holds"))

        let store = try await SQLiteLedgerStore.open(
            path: data.appendingPathComponent("purser.sqlite").path, logger: Logger(label: "test"))
        try await store.write { database in
            _ = try database.query("DELETE FROM outbox WHERE idempotency_key = ?", [.text("\(id):credited")])
        }
        try await store.close()
        let broken = try await PurserProcess.run(["ledger", "check", "--data-dir", data.path])
        #expect(broken.status == 1)
        #expect(
            broken.stdout.contains(
                "credited_without_event \(id): a credited transaction has no transaction.credited event"),
            "\(broken.stdout)")
        let json = try await PurserProcess.run(["ledger", "check", "--data-dir", data.path, "--json"])
        let report = try JSONDecoder().decode(LedgerIntegrity.self, from: Data(json.stdout.utf8))
        #expect(report.findings == [.init(rule: "credited_without_event", subject: id)])

        let missing = try await PurserProcess.run([
            "ledger", "check", "--data-dir", directory.appendingPathComponent("none").path,
        ])
        #expect(missing.status == 1 && missing.stderr.contains("no ledger at"))
    }
}
