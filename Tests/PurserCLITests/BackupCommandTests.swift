import Foundation
import PurserChaos
import Testing

/// `purser backup` of a live SQLite ledger and `purser restore`, as an operator runs them: the copy is checked and
/// described; a restore is refused while the server has the ledger open and puts the backup's state back once it is
/// stopped; a file that is not a sound ledger is never restored.
@Suite struct BackupCommandTests {
    let serve = ServeCommandTests()

    @Test func backsUpALiveLedgerAndRestoresItOnceTheServerStopped() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try await serve.simulatedServe(in: directory)
        defer { setup.simulator.terminate() }
        let (data, simulatorURL) = (setup.data.path, setup.simulatorURL)
        var (server, port) = try await serve.launch(setup)
        try await credit(as: "bea", port: port, simulator: simulatorURL)

        let copy = directory.appendingPathComponent("backup.sqlite").path
        let backup = try await PurserProcess.run(["backup", "--data-dir", data, "--to", copy])
        #expect(backup.status == 0, "\(backup.stdout)\(backup.stderr)")
        #expect(backup.stdout.contains("SQLite integrity_check: ok"))
        #expect(backup.stdout.contains("checked: 1 credited transactions, 1 orders, 0 wallet transactions"))
        #expect(backup.stdout.contains("balances' totals: gold 60") && backup.stdout.contains("ok: every rule holds"))
        let again = try await PurserProcess.run(["backup", "--data-dir", data, "--to", copy])
        #expect(again.status == 1 && again.stderr.contains("exists"), "a backup never overwrites")

        try await credit(as: "bea", port: port, simulator: simulatorURL)
        #expect(try await gold("bea", port: port) == 120)
        let refused = try await PurserProcess.run(["restore", "--data-dir", data, "--from", copy])
        #expect(refused.status == 1 && refused.stderr.hasPrefix("ledger_in_use: "), "\(refused.stderr)")

        server.terminate()
        #expect(await server.waitUntilExit() == 0)
        let garbage = directory.appendingPathComponent("garbage.sqlite")
        try Data(repeating: 0x42, count: 4096).write(to: garbage)
        let unsound = try await PurserProcess.run(["restore", "--data-dir", data, "--from", garbage.path])
        #expect(unsound.status == 1 && unsound.stderr.hasPrefix("storage_corrupt: "), "\(unsound.stderr)")
        let restored = try await PurserProcess.run(["restore", "--data-dir", data, "--from", copy])
        #expect(restored.status == 0, "\(restored.stdout)\(restored.stderr)")
        #expect(restored.stdout.contains("restored: "))

        (server, port) = try await serve.launch(setup)
        defer { server.terminate() }
        #expect(try await gold("bea", port: port) == 60, "the backup's state, before the second purchase")
        let check = try await PurserProcess.run(["ledger", "check", "--data-dir", data])
        #expect(check.status == 0 && check.stdout.contains("ok: every rule holds"))
    }

    /// `user` buys gold60 and the server credits it.
    func credit(as user: String, port: Int, simulator: String) async throws {
        let base = "http://127.0.0.1:\(port)"
        let (jws, _) = try await serve.buyGold60(as: user, at: base, simulator: simulator)
        let (status, body) = try await serve.request(
            "POST", "\(base)/v1/transactions", user: user, json: #"{"signedTransaction": "\#(jws)"}"#)
        #expect(status == 200 && body["decision"] as? String == "delivered")
    }

    func gold(_ user: String, port: Int) async throws -> Int? {
        let (_, wallet) = try await serve.request("GET", "http://127.0.0.1:\(port)/v1/wallet", user: user)
        return (wallet["balances"] as? [String: Int])?["gold"]
    }
}
