import Foundation
import PurserCore
import PurserServer
import PurserWebhooks
import Testing

/// `apps`: a studio's apps, each entry taking the top-level value of every key it leaves out, its paths resolved
/// against the file, its secrets redacted, and each app's settings (`settings(for:)`) pointing at its own ledger.
extension ServerConfigurationTests {
    @Test func appsInheritTheTopLevelKeysAndEachOpensItsOwnLedger() async throws {
        let file = try configFile(
            """
            {"dataDirectory": "data", "catalogFile": "shared.json", "environments": ["Sandbox"],
             "appStoreServerAPI": {"issuerId": "team", "keyId": "K1", "privateKeyFile": "AuthKey.p8"},
             "refunds": {"allowNegativeBalance": false},
             "apps": [
               {"bundleId": "com.example.dragons", "sharedSecret": "dragon-secret"},
               {"bundleId": "com.example.racers", "catalogFile": "racers.json", "appAppleId": 42,
                "consumption": {"respond": true},
                "webhooks": {"endpoints": [{"url": "https://racers.example.com/purser", "secret": "whsec_x"}]}}
             ]}
            """)
        defer { remove(file) }
        let settings = try await ServerConfiguration.load(
            file: file,
            environment: [
                "PURSER_APPS_1_SHARED_SECRET": "racer-secret",
                "PURSER_APPS_1_WEBHOOKS_ENDPOINTS_0_SECRET": "whsec_from_the_environment",
            ])
        let directory = file.deletingLastPathComponent().path
        #expect(settings.servedApps.map(\.bundleId) == ["com.example.dragons", "com.example.racers"])
        let (dragons, racers) = (settings.apps[0], settings.apps[1])
        #expect(dragons.catalogFile == directory + "/shared.json")
        #expect(racers.catalogFile == directory + "/racers.json")
        #expect(racers.appStoreServerAPI.privateKeyFile == directory + "/AuthKey.p8")
        #expect(racers.appStoreServerAPI.issuerId == "team" && racers.appAppleId == 42 && dragons.appAppleId == nil)
        #expect(racers.environments == [.sandbox] && !racers.refunds.allowNegativeBalance)
        #expect(racers.consumption.respond && !dragons.consumption.respond)
        #expect(dragons.sharedSecret == "dragon-secret" && racers.sharedSecret == "racer-secret")
        #expect(
            dragons.webhookEndpoints.isEmpty
                && racers.webhookEndpoints.map(\.url) == ["https://racers.example.com/purser"])
        // The guide's way to give an app's endpoint its secret: the environment, by the app's and endpoint's index.
        #expect(racers.webhookEndpoints.first?.secrets.contains("whsec_from_the_environment") == true)

        let first = settings.settings(for: dragons)
        let second = settings.settings(for: racers)
        #expect(first.bundleId == "com.example.dragons" && first.ledgerApp == nil)
        #expect(first.sqliteLedgerPath == directory + "/data/purser.sqlite")
        #expect(second.ledgerApp == "com.example.racers")
        #expect(second.sqliteLedgerPath == directory + "/data/apps/com.example.racers.sqlite")
        #expect(second.backupDirectory == directory + "/data/backups/com.example.racers")
        #expect(ServerConfiguration.postgresSchema(forApp: "com.example.racers") == "app_com_example_racers")
        // The studio's own settings (keys, ledger check, backup) open the first app's ledger.
        #expect(settings.ledgerApp == nil)

        let printed = try settings.effectiveJSON()
        #expect(!printed.contains("dragon-secret") && !printed.contains("racer-secret") && !printed.contains("whsec_"))
    }

    @Test func appsThatCannotBeServedAreNamed() async throws {
        for (apps, problem) in [
            (#"[{"bundleId": "com.a"}, {"bundleId": "com.a"}]"#, "apps lists com.a twice"),
            (#"[{"bundleId": "com.a-b"}, {"bundleId": "com.a.b"}]"#, "would share the ledger schema app_com_a_b"),
            (#"[{"bundleId": "../evil"}]"#, "is not a bundle id"),
        ] {
            let file = try configFile(#"{"catalogFile": "none.json", "apps": \#(apps)}"#)
            defer { remove(file) }
            let settings = try await ServerConfiguration.load(file: file, environment: [:])
            #expect(settings.problems().contains { $0.contains(problem) }, "\(settings.problems())")
        }
        let file = try configFile(#"{"apps": [{"bundleId": "com.a", "catalogFile": "missing.json"}]}"#)
        defer { remove(file) }
        let settings = try await ServerConfiguration.load(file: file, environment: [:])
        #expect(settings.problems().contains { $0.hasPrefix("apps.0 (com.a): cannot read the catalog") })
    }

    /// A missing webhook secret is hinted with the variable that sets it for that app: an app's own endpoint's
    /// `PURSER_APPS_1_WEBHOOKS_ENDPOINTS_0_SECRET` (it once named the top-level `PURSER_WEBHOOKS_ENDPOINTS_0_SECRET`,
    /// which never reaches that endpoint), an inherited top-level endpoint's `PURSER_WEBHOOKS_ENDPOINTS_0_SECRET`.
    /// Setting the variables named is all it takes.
    @Test func aMissingSecretNamesTheVariableThatSetsItForThatApp() async throws {
        let file = try configFile(
            """
            {"auth": {"mode": "development"}, "catalogFile": "catalog.json",
             "webhooks": {"endpoints": [{"url": "https://studio.example.com/purser"}]},
             "apps": [{"bundleId": "com.example.dragons"},
                      {"bundleId": "com.example.racers",
                       "webhooks": {"endpoints": [{"url": "https://racers.example.com/purser"}]}}]}
            """)
        defer { remove(file) }
        try #"{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}"#.write(
            to: file.deletingLastPathComponent().appendingPathComponent("catalog.json"), atomically: true,
            encoding: .utf8)
        let problems = try await ServerConfiguration.load(file: file, environment: [:]).problems()
        #expect(problems.count == 2, "\(problems)")
        #expect(
            problems.contains {
                $0.hasPrefix("apps.1 (com.example.racers): ")
                    && $0.contains("(secret or secrets, or PURSER_APPS_1_WEBHOOKS_ENDPOINTS_0_SECRET)")
            }, "\(problems)")
        #expect(
            problems.contains {
                $0.hasPrefix("apps.0 (com.example.dragons): ")
                    && $0.contains("(secret or secrets, or PURSER_WEBHOOKS_ENDPOINTS_0_SECRET)")
            }, "\(problems)")
        let secret = WebhookSecret.generate().serialized
        let fixed = try await ServerConfiguration.load(
            file: file,
            environment: [
                "PURSER_WEBHOOKS_ENDPOINTS_0_SECRET": secret, "PURSER_APPS_1_WEBHOOKS_ENDPOINTS_0_SECRET": secret,
            ])
        #expect(fixed.problems().isEmpty, "\(fixed.problems())")
    }
}
