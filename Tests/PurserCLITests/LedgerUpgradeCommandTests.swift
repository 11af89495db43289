import Foundation
import Logging
import PurserChaos
import PurserStorageTesting
import Testing

@testable import PurserStorage

/// The SQLite fixture ledgers of every earlier schema version (`Tests/LedgerFixtures`) upgraded by today's `purser`
/// binary, then checked by `purser ledger check`: no finding, and the balances' totals the fixtures intend.
@Suite struct LedgerUpgradeCommandTests {
    let serve = ServeCommandTests()
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("LedgerFixtures")

    /// Writes the ledger of schema `version` into `data` as that release left it; returns the fixtures it holds.
    static func oldLedger(version: Int, in data: URL) async throws -> [LedgerFixture] {
        var logger = Logger(label: "purser.upgrade-tests")
        logger.logLevel = .warning
        let store = try await SQLiteLedgerStore.open(
            path: data.appendingPathComponent("purser.sqlite").path, logger: logger)
        let applied = try await LedgerFixture.build(
            try LedgerFixture.history(in: fixtures), version: version, on: .sqlite,
            migrate: { try await store.migrate(through: $0) },
            execute: { sql in try await store.write { try $0.execute(sql) } })
        try await store.close()
        return applied
    }

    /// `purser ledger check --json` on `data`: exit 0, no finding, and `totals`.
    static func check(_ data: URL, totals: [String: Int64]) async throws {
        let check = try await PurserProcess.run(["ledger", "check", "--data-dir", data.path, "--json"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let report = try JSONDecoder().decode(LedgerIntegrity.self, from: Data(check.stdout.utf8))
        #expect(report.findings == [])
        #expect(report.totals.filter { $0.value != 0 } == totals)
    }

    /// The check does not migrate: on a ledger of an earlier schema it says so and what to do, exit 1, instead of a
    /// query failure.
    @Test func refusesToCheckALedgerOfAnEarlierSchema() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data")
        let previous = SQLiteLedgerStore.migrations.dropLast().last?.version ?? 0
        _ = try await Self.oldLedger(version: previous, in: data)
        let check = try await PurserProcess.run(["ledger", "check", "--data-dir", data.path])
        #expect(check.status == 1)
        #expect(
            check.stderr.hasPrefix("ledger_outdated: the ledger is at schema version \(previous)"), "\(check.stderr)")
    }

    /// A backup an earlier release took restores: the copy is migrated beside the ledger, the backup file stays as it
    /// was, and the restored ledger checks sound.
    @Test func restoresABackupOfAnEarlierSchema() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let old = directory.appendingPathComponent("old")
        let previous = SQLiteLedgerStore.migrations.dropLast().last?.version ?? 0
        let applied = try await Self.oldLedger(version: previous, in: old)
        let backup = old.appendingPathComponent("purser.sqlite").path
        let data = directory.appendingPathComponent("data")
        let restore = try await PurserProcess.run(["restore", "--data-dir", data.path, "--from", backup])
        #expect(restore.status == 0, "\(restore.stdout)\(restore.stderr)")
        try await Self.check(data, totals: LedgerFixture.totals(applied))
        let untouched = try await PurserProcess.run(["ledger", "check", "--data-dir", old.path])
        #expect(untouched.stderr.hasPrefix("ledger_outdated: "), "the backup itself was not migrated")
    }

    /// A support command (`purser webhooks list`) opens the ledger as every command that works on it does, migrations
    /// first; the ledger check afterwards finds every rule holding.
    @Test(arguments: SQLiteLedgerStore.migrations.map(\.version))
    func upgradesEachFixtureWithTheBinaryAndChecksIt(version: Int) async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data")
        let applied = try await Self.oldLedger(version: version, in: data)
        try #"{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}"#
            .write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
        let config = directory.appendingPathComponent("purser.json")
        try
            #"{"dataDirectory": "data", "catalogFile": "catalog.json", "appStore": "simulator", "auth": {"mode": "development"}}"#
            .write(to: config, atomically: true, encoding: .utf8)
        let list = try await PurserProcess.run(["webhooks", "list", "--config", config.path])
        #expect(list.status == 0, "\(list.stdout)\(list.stderr)")
        try await Self.check(data, totals: LedgerFixture.totals(applied))
    }

    /// The first release's ledger under today's `purser serve`: it starts (every migration since), credits a new
    /// purchase to a user of that ledger, and the ledger check holds with the new credit in the totals.
    @Test func servesTheFirstReleasesLedger() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try await serve.simulatedServe(in: directory)
        defer { setup.simulator.terminate() }
        let applied = try await Self.oldLedger(version: 1, in: setup.data)
        let (server, port) = try await serve.launch(setup)
        defer { server.terminate() }
        let base = "http://127.0.0.1:\(port)"
        let (jws, _) = try await serve.buyGold60(as: "v1-ada", at: base, simulator: setup.simulatorURL)
        let (status, decision) = try await serve.request(
            "POST", "\(base)/v1/transactions", user: "v1-ada", json: #"{"signedTransaction": "\#(jws)"}"#)
        #expect(status == 200 && decision["finish"] as? Bool == true, "\(decision)")
        let (_, wallet) = try await serve.request("GET", "\(base)/v1/wallet", user: "v1-ada")
        #expect((wallet["balances"] as? [String: Any])?["gold"] as? Int == 220, "\(wallet)")
        server.terminate()
        #expect(await server.waitUntilExit() == 0)
        var totals = LedgerFixture.totals(applied)
        totals["gold", default: 0] += 60
        try await Self.check(setup.data, totals: totals)
    }
}
