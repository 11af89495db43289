import Foundation
import Logging
import PurserChaos
import PurserStorage
import Testing

/// A restored ledger starts again where its backup stopped: wallet rows and per-user sequences are numbered again
/// from there. Its webhook ids must not be: a game backend that applies each `webhook-id` once had applied the id of
/// the change made after the backup, and would drop the different change that took its number after the restore.
extension BackupCommandTests {
    @Test func aRestoredLedgerNeverSendsAWebhookIdItSentBefore() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try await serve.simulatedServe(in: directory)
        defer { setup.simulator.terminate() }
        let environment = setup.environment.merging(["PURSER_ADMIN_TOKEN": Self.adminToken]) { _, new in new }
        var (server, port) = try await serve.launch(setup.arguments, environment: environment)
        try await deposit("first", port: port)
        let copy = directory.appendingPathComponent("backup.sqlite").path
        let backup = try await PurserProcess.run(["backup", "--data-dir", setup.data.path, "--to", copy])
        #expect(backup.status == 0, "\(backup.stdout)\(backup.stderr)")
        try await deposit("after-the-backup", port: port)
        let sent = try await webhookIDs(in: setup.data)
        #expect(sent.count == 2)

        server.terminate()
        #expect(await server.waitUntilExit() == 0)
        let restored = try await PurserProcess.run(["restore", "--data-dir", setup.data.path, "--from", copy])
        #expect(restored.status == 0, "\(restored.stdout)\(restored.stderr)")
        (server, port) = try await serve.launch(setup.arguments, environment: environment)
        defer { server.terminate() }
        try await deposit("after-the-restore", port: port)
        let now = try await webhookIDs(in: setup.data)
        #expect(now.count == 2, "the backup's event and the new one")
        let new = now.subtracting(sent)
        #expect(new.count == 1, "the change after the restore has an id no event had before: \(sent), \(now)")
    }

    static let adminToken = "restore-admin-token"

    /// A deposit of 5 gold to kim through the admin API, with idempotency id `id`.
    func deposit(_ id: String, port: Int) async throws {
        let (status, body) = try await serve.request(
            "POST", "http://127.0.0.1:\(port)/admin/v1/wallets/kim/transactions", bearer: Self.adminToken,
            json: #"{"id": "\#(id)", "amounts": {"gold": 5}, "reason": "gift"}"#)
        #expect(status == 200, "\(body)")
    }

    /// The webhook ids of kim's events in the ledger of `data`, read from its outbox.
    func webhookIDs(in data: URL) async throws -> Set<String> {
        let store = try await SQLiteLedgerStore.open(
            path: data.appendingPathComponent("purser.sqlite").path, locked: false, logger: Logger(label: "test"))
        let rows = try await store.rowsMentioning("kim")
        try await store.close()
        return Set(rows.filter { $0.table == "outbox" }.compactMap { $0.values["webhook_id"]?.text })
    }
}
