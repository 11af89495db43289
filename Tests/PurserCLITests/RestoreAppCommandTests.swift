import Foundation
import PurserChaos
import Testing

/// A ledger records the app it belongs to, and the commands say so: `purser restore` refuses a backup of another app's
/// ledger, naming both apps, and restores it only with `--as-app` (re-labelled); `serve` refuses a ledger that another
/// app's file replaced with advice that fits (restore the app's own backup, or re-label on purpose), not "list it
/// first" for an app that already is first.
@Suite struct RestoreAppCommandTests {
    let serve = ServeCommandTests()
    let dragons = ServeCommandTests.dragons
    let racers = ServeCommandTests.racers

    /// A studio of Dragons and Racers started once (each ledger records its app) and stopped; the configuration.
    func startedStudio(in directory: URL) async throws -> URL {
        let config = try serve.writeStudio(in: directory, apps: [dragons, racers])
        let (server, _) = try await serve.launch(["serve", "--config", config.path], environment: [:])
        server.terminate()
        #expect(await server.waitUntilExit() == 0, "\(server.output.suffix(2_000))")
        return config
    }

    @Test func aBackupOfAnotherAppIsRefusedUnlessRestoredAsThisAppOnPurpose() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try await startedStudio(in: directory)
        let copy = directory.appendingPathComponent("dragons.sqlite").path
        let backup = try await PurserProcess.run(["backup", "--config", config.path, "--app", dragons, "--to", copy])
        #expect(backup.status == 0 && backup.stdout.contains("app: \(dragons)\n"), "\(backup.stdout)\(backup.stderr)")
        let racersLedger = directory.appendingPathComponent("data/apps/\(racers).sqlite")
        let before = try Data(contentsOf: racersLedger)

        let refused = try await PurserProcess.run([
            "restore", "--config", config.path, "--app", racers, "--from", copy,
        ])
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.hasPrefix("ledger_of_another_app: "), "\(refused.stderr)")
        #expect(
            refused.stderr.contains("is the ledger of the app \(dragons), not of \(racers)")
                && refused.stderr.contains("nothing was restored") && refused.stderr.contains("--as-app"),
            "\(refused.stderr)")
        #expect(try Data(contentsOf: racersLedger) == before, "Racers' ledger is untouched")
        #expect(!FileManager.default.fileExists(atPath: racersLedger.path + ".restoring"))

        // Its own app's backup restores as before.
        let own = try await PurserProcess.run(["restore", "--config", config.path, "--app", dragons, "--from", copy])
        #expect(own.status == 0 && own.stdout.contains("app: \(dragons)\n"), "\(own.stdout)\(own.stderr)")

        // On purpose: restored as Racers' ledger, which then records Racers, and serve starts on it.
        let relabelled = try await PurserProcess.run([
            "restore", "--config", config.path, "--app", racers, "--from", copy, "--as-app",
        ])
        #expect(relabelled.status == 0, "\(relabelled.stdout)\(relabelled.stderr)")
        #expect(
            relabelled.stdout.contains("app: \(racers), re-labelled from \(dragons) (--as-app)"), "\(relabelled.stdout)"
        )
        let (server, port) = try await serve.launch(["serve", "--config", config.path], environment: [:])
        defer { server.terminate() }
        #expect(try await serve.request("GET", "http://127.0.0.1:\(port)/ready").0 == 200)
    }

    @Test func serveNamesTheFixForAnotherAppsLedgerInAnAppsPlace() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try await startedStudio(in: directory)
        // Dragons' ledger copied by hand over Racers' (Dragons already is first: listing it first fixes nothing).
        let data = directory.appendingPathComponent("data")
        let racersLedger = data.appendingPathComponent("apps/\(racers).sqlite")
        try FileManager.default.removeItem(at: racersLedger)
        try FileManager.default.copyItem(at: data.appendingPathComponent("purser.sqlite"), to: racersLedger)

        let refused = try await serve.start(["serve", "--config", config.path])
        #expect(await refused.waitUntilExit() != 0)
        let output = refused.output
        #expect(output.contains("belongs to the app \(dragons), not \(racers)"), "\(output)")
        #expect(!output.contains("list \(dragons) first"), "\(output)")
        #expect(
            output.contains("purser restore --app \(racers) --from BACKUP")
                && output.contains("purser restore --app \(racers) --from COPY --as-app"),
            "\(output)")
    }
}
