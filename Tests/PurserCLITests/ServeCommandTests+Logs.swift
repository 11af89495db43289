import Foundation
import PurserChaos
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What `purser serve` logs: never a secret, and no worker's failure before the ledger is migrated.
extension ServeCommandTests {
    /// `serve` at trace level, with a known value in every secret setting, prints none of them: the service group's
    /// debug lines once showed every webhook secret, and the configuration's access log an operator's hash. The same
    /// in either log format; in `json` every line is a JSON object, and no value in it holds a secret either.
    @Test(arguments: ["text", "json"]) func traceLogShowsNoSecret(format: String) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try #"{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}"#
            .write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
        let keyFile = directory.appendingPathComponent("AuthKey_TESTKEY123.p8")
        let openssl = try await PurserProcess.runTool(
            "/usr/bin/openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"])
        try #require(openssl.status == 0, "openssl: \(openssl.stderr)")
        try openssl.stdout.write(to: keyFile, atomically: true, encoding: .utf8)
        let hashed = try await PurserProcess.run(["console", "hash-password"], stdin: "correct horse battery\n")
        let hash = hashed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(hash.hasPrefix("$scrypt$"), "\(hashed.stderr)")
        let webhookKey = Data((0..<32).map { UInt8(($0 * 37 + 11) % 256) }).base64EncodedString()
        let adminToken = "admin-token-9f1c2e7a4b"
        let jwtSecret = "jwt-secret-4b8d0c3f5e6a4d2b9c1e7f0a3b6d8e21"
        let databasePassword = "db-password-71c3e9d2"
        let sharedSecret = "shared-secret-2d5f8a0b"
        let metricsToken = "metrics-token-6e0b4c1d"
        var secrets: [(String, String)] = [
            ("admin token", adminToken), ("JWT secret", jwtSecret), ("webhook secret", webhookKey),
            ("database password", databasePassword), ("shared secret", sharedSecret), ("metrics token", metricsToken),
            ("operator hash", hash),
        ]
        for part in hash.split(separator: "$").suffix(2) { secrets.append(("part of the operator hash", String(part))) }
        for line in openssl.stdout.split(separator: "\n") where !line.hasPrefix("-----") {
            secrets.append(("a line of the .p8 key", String(line)))
        }
        let configuration = """
            {"port": 0, "dataDirectory": "data", "catalogFile": "catalog.json", "appStore": "apple",
             "sharedSecret": "\(sharedSecret)",
             "auth": {"mode": "jwt", "jwt": {"algorithm": "HS256", "secret": "\(jwtSecret)"}},
             "appStoreServerAPI": {"issuerId": "issuer-1", "keyId": "TESTKEY123", "privateKeyFile": "\(keyFile.path)",
                                   "baseURL": "http://127.0.0.1:9"},
             "reconciliation": {"intervalSeconds": 0}, "finishing": {"intervalSeconds": 0},
             "database": {"password": "\(databasePassword)"},
             "webhooks": {"endpoints": [{"url": "http://127.0.0.1:9/hook", "secret": "whsec_\(webhookKey)"}]},
             "metrics": {"port": 0, "token": "\(metricsToken)"},
             "console": {"operators": [{"name": "li", "passwordHash": "\(hash)"}]}}
            """
        let file = directory.appendingPathComponent("purser.json")
        try configuration.write(to: file, atomically: true, encoding: .utf8)
        let (process, port) = try await launch(
            ["serve", "--config", file.path, "--log-level", "trace", "--log-format", format],
            environment: ["PURSER_ADMIN_TOKEN": adminToken])
        defer { if process.isRunning { process.terminate() } }
        // Requests the log may describe: one with the admin token, one with a wrong JWT, a console sign-in.
        var admin = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/admin/v1/transactions/1")!)
        admin.setValue("Bearer \(adminToken)", forHTTPHeaderField: "Authorization")
        _ = try await URLSession.shared.data(for: admin)
        var user = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/wallet")!)
        user.setValue("Bearer \(jwtSecret)", forHTTPHeaderField: "Authorization")
        _ = try await URLSession.shared.data(for: user)
        process.terminate()
        let log = await process.outputAfterExit()
        #expect(log.contains("Starting service"), "the trace log lacks the service group's lines: \(log)")
        #expect(log.contains("admin.token is the legacy form of an admin API key"), "no legacy token notice: \(log)")
        for (name, secret) in secrets {
            #expect(!log.contains(secret), "the \(name) appears in the trace log")
        }
        guard format == "json" else { return }
        let entries = try JSONLogLines.parse(log, file: "serve's output")
        #expect(entries.count > 20 && entries.contains { $0["level"] == "trace" })
        for (name, secret) in secrets {
            #expect(!entries.contains { $0.values.contains { $0.contains(secret) } }, "the \(name) is in a JSON line")
        }
    }

    /// On a fresh ledger no worker runs before the migrations: the first lines of `serve` with webhooks were once the
    /// worker's `webhook fan-out failed; storage_query_failed`, logged before migration 1 had created its tables.
    @Test func workersWaitForTheMigratedLedger() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try #"{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}"#
            .write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
        let secret = "whsec_" + Data(repeating: 7, count: 32).base64EncodedString()
        let file = directory.appendingPathComponent("purser.json")
        try """
        {"port": 0, "dataDirectory": "data", "catalogFile": "catalog.json", "appStore": "simulator",
         "auth": {"mode": "development"},
         "reconciliation": {"intervalSeconds": 0.2}, "finishing": {"intervalSeconds": 0.2},
         "webhooks": {"endpoints": [{"url": "http://127.0.0.1:9/hook", "secret": "\(secret)"}],
                      "pollIntervalSeconds": 0.05},
         "metrics": {"port": 0}}
        """.write(to: file, atomically: true, encoding: .utf8)
        let (process, _) = try await launch(["serve", "--config", file.path], environment: [:])
        defer { if process.isRunning { process.terminate() } }
        try await Task.sleep(for: .seconds(1))
        process.terminate()
        let log = await process.outputAfterExit()
        let failures = log.split(separator: "\n").filter { $0.contains("failed") || $0.contains("storage_") }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(log.contains("reconciliation"), "the reconciliation worker did not run: \(log)")
    }
}
