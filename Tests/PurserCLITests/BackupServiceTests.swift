import Foundation
import PurserChaos
import Testing

/// `serve`'s own backups (`backup.intervalSeconds`, `backup.directory`, `backup.keep`), as an operator configures
/// them: copies keep coming while the server answers, only the newest `keep` stay, and each restores into a ledger
/// that checks sound and holds what was credited.
@Suite struct BackupServiceTests {
    let serve = ServeCommandTests()
    let commands = BackupCommandTests()

    @Test func takesCopiesOnItsOwnKeepsTheNewestAndEachRestores() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try await serve.simulatedServe(in: directory)
        defer { setup.simulator.terminate() }
        let backups = directory.appendingPathComponent("backups")
        let environment = setup.environment.merging(
            [
                "PURSER_BACKUP_INTERVAL_SECONDS": "0.3", "PURSER_BACKUP_KEEP": "2",
                "PURSER_BACKUP_DIRECTORY": backups.path,
            ], uniquingKeysWith: { $1 })
        let (server, port) = try await serve.launch(setup.arguments, environment: environment)
        defer { server.terminate() }
        try await commands.credit(as: "cleo", port: port, simulator: setup.simulatorURL)

        // A copy on disk when the credit returned, or the first to appear after it, may have been taken before the
        // credit committed. Wait until neither kind is left: only the newest two, both begun after the credit.
        let before = Set(try Self.copies(in: backups))
        var tainted = before
        var firstNew: String?
        var seen = before
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let names = Set(try Self.copies(in: backups))
            #expect(names.count <= 3, "never more than backup.keep copies and the one being taken: \(names.sorted())")
            seen.formUnion(names)
            if firstNew == nil, let earliest = names.subtracting(before).sorted().first {
                firstNew = earliest
                tainted.insert(earliest)
            }
            if firstNew != nil, names.count == 2, names.isDisjoint(with: tainted) { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(seen.count >= 3, "copies keep coming: \(seen.sorted())")
        #expect(try await commands.gold("cleo", port: port) == 60, "the server answered all along")
        server.terminate()
        #expect(await server.waitUntilExit() == 0)
        let kept = try Self.copies(in: backups).sorted()
        #expect((2...3).contains(kept.count), "backup.keep, or one more when the stop came between copy and cleanup")
        #expect(kept.allSatisfy { $0.hasPrefix("purser-") && $0.hasSuffix("Z.sqlite") }, "\(kept)")

        for (index, name) in kept.enumerated() {
            let data = directory.appendingPathComponent("restored-\(index)").path
            let restore = try await PurserProcess.run(
                ["restore", "--data-dir", data, "--from", backups.appendingPathComponent(name).path])
            #expect(restore.status == 0, "\(restore.stdout)\(restore.stderr)")
            let check = try await PurserProcess.run(["ledger", "check", "--data-dir", data])
            #expect(check.status == 0 && check.stdout.contains("ok: every rule holds"), "\(check.stdout)")
            #expect(check.stdout.contains("balances' totals: gold 60"), "\(check.stdout)")
        }
    }

    /// The copies in `directory` (none before it exists), without a copy's passing `-journal`.
    static func copies(in directory: URL) throws -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
            $0.hasSuffix(".sqlite")
        }
    }

    @Test func refusesToCopyAPostgreSQLLedgerAtStart() async throws {
        let result = try await PurserProcess.run(
            ["config", "check"],
            environment: [
                "PURSER_APP_STORE": "simulator", "PURSER_AUTH_MODE": "development",
                "PURSER_DATABASE_URL": "postgres://purser@127.0.0.1:1/purser", "PURSER_BACKUP_INTERVAL_SECONDS": "60",
            ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("problem: backup.intervalSeconds copies a SQLite ledger"), "\(result.stderr)")
    }
}
