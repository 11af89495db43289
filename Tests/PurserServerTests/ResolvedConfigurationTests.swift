import AppStoreSimulator
import Foundation
import Logging
import PurserCore
import PurserServer
import PurserStorage
import PurserWebhooks
import Testing

/// `ServerConfiguration.resolve`: every check runs once, and the studio `serve` assembles is built from exactly what
/// was resolved, so what `purser config check` reports and what `serve` does cannot differ.
@Suite struct ResolvedConfigurationTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-resolve-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Writes `text` to `name` in the test's directory.
    func write(_ text: String, to name: String) throws -> URL {
        let file = directory.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Each app's catalog, App Store and ledger, as `serve` opens them, and the studio assembled on them from
    /// `settings`; the problems the assembly threw, if any. The ledgers are closed again.
    func assemble(_ settings: ServerConfiguration) async throws -> (studio: PurserStudio?, problems: [String]) {
        let apps = settings.servedApps.map(settings.settings(for:))
        let catalogs = try apps.map { try $0.loadCatalog() }
        let accesses = try await AppStoreAccess.configured(apps: settings, catalogs: catalogs)
        var ledgers: [any LedgerStore] = []
        for app in apps { ledgers.append(try await app.openLedger(logger: Logger(label: "test"))) }
        let result: (studio: PurserStudio?, problems: [String])
        do {
            let studio = try PurserStudio.assemble(
                settings, catalogs: catalogs, ledgers: ledgers, appStores: accesses, logger: Logger(label: "test"))
            result = (studio, [])
        } catch {
            result = (nil, error.problems)
        }
        for ledger in ledgers { try await ledger.close() }
        return result
    }

    /// Xcode's certificate trusted at the top level, where `environments` lists Xcode, and a second app whose own
    /// environments do not: the check once read the top-level environments and found nothing, while the assembly
    /// read the app's and refused. Both now name the app's problem, and nothing else.
    @Test func theCheckAndTheAssemblyRefuseTheSameStudio() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(try XcodeTestingSigner().certificateDER).write(to: directory.appendingPathComponent("xcode.cer"))
        _ = try write(#"{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}"#, to: "catalog.json")
        let file = try write(
            #"""
            {"auth": {"mode": "development"}, "dataDirectory": "data", "catalogFile": "catalog.json",
             "environments": ["Production", "Sandbox", "Xcode"], "xcode": {"certificateFile": "xcode.cer"},
             "apps": [{"bundleId": "com.example.dragons"},
                      {"bundleId": "com.example.racers", "environments": ["Production"]}]}
            """#, to: "purser.json")
        let settings = try await ServerConfiguration.load(file: file, environment: [:])
        let checked = settings.problems()
        let assembled = try await assemble(settings)
        #expect(assembled.studio == nil, "racers does not accept Xcode's environment")
        #expect(checked == assembled.problems)
        #expect(checked.count == 1 && checked.first?.hasPrefix("apps.1 (com.example.racers): xcode.") == true)
    }

    /// A studio resolved from a file: each app's catalog, webhook endpoints and ledger are its own, and the studio
    /// built from the resolution serves exactly those.
    @Test func theStudioIsBuiltFromWhatWasResolved() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try write(#"{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}"#, to: "dragons.json")
        _ = try write(#"{"products": {"nitro": {"type": "consumable", "grants": {"nitro": 5}}}}"#, to: "racers.json")
        let file = try write(
            #"""
            {"auth": {"mode": "development"}, "dataDirectory": "data", "catalogFile": "dragons.json",
             "webhooks": {"endpoints": [{"url": "https://studio.example.com/purser"}]},
             "apps": [{"bundleId": "com.example.dragons"},
                      {"bundleId": "com.example.racers", "catalogFile": "racers.json",
                       "webhooks": {"endpoints": [{"url": "https://racers.example.com/purser"}]}}]}
            """#, to: "purser.json")
        let secret = WebhookSecret.generate().serialized
        let resolved = try await ServerConfiguration.resolve(
            file: file,
            environment: [
                "PURSER_WEBHOOKS_ENDPOINTS_0_SECRET": secret, "PURSER_APPS_1_WEBHOOKS_ENDPOINTS_0_SECRET": secret,
            ])
        #expect(resolved.apps.map(\.bundleId) == ["com.example.dragons", "com.example.racers"])
        #expect(resolved.apps.map { Array($0.catalog.products.keys) } == [["gold60"], ["nitro"]])
        #expect(
            resolved.apps.map { $0.webhookEndpoints.map(\.name) } == [
                ["https://studio.example.com/purser"], ["https://racers.example.com/purser"],
            ])
        let data = directory.appendingPathComponent("data").path
        let paths = resolved.apps.map { app -> String? in
            guard case .sqlite(let path) = app.ledger else { return nil }
            return path
        }
        #expect(paths == [data + "/purser.sqlite", data + "/apps/com.example.racers.sqlite"])
        #expect(try resolved.app("com.example.racers").catalog == resolved.apps[1].catalog)

        var ledgers: [any LedgerStore] = []
        for app in resolved.apps {
            ledgers.append(try await app.ledger.open(bundleId: app.bundleId, logger: Logger(label: "test")))
        }
        let accesses = try await AppStoreAccess.configured(resolved)
        let studio = PurserStudio.assemble(resolved, ledgers: ledgers, appStores: accesses, logger: Logger(label: "t"))
        for (assembly, app) in zip(studio.apps, resolved.apps) {
            #expect(assembly.configuration.bundleId == app.bundleId)
            #expect(assembly.catalog == app.catalog)
            #expect(assembly.webhooks.endpoints == app.webhookEndpoints)
            #expect(assembly.receiptVerification == app.receiptVerification)
        }
        for ledger in ledgers { try await ledger.close() }
    }
}
