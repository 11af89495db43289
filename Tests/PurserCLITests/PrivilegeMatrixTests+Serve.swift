import Crypto
import Foundation
import Logging
import PurserChaos
import PurserStorage
import Testing

/// The table against a live `purser serve` of two apps, and the files that serve and the commands beside it write.
extension PrivilegeMatrixTests {
    @Test func everyAdminRouteAnswersEveryCallerAsTheRulesSay() async throws {
        let serve = ServeCommandTests()
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try serve.writeStudio(in: directory, apps: [Self.dragons, Self.racers])
        let (server, port) = try await serve.launch(["serve", "--config", config.path], environment: [:])
        defer { server.terminate() }
        let base = "http://127.0.0.1:\(port)"
        let token = "studio-admin-token"

        // Every kind of caller. The keys are made through the API with the admin token, but the expired one, which
        // only the ledger can hold.
        func make(_ name: String, scopes: [String], apps: [String]?) async throws -> String {
            var body: [String: Any] = ["name": name, "scopes": scopes]
            if let apps { body["apps"] = apps }
            let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
            let (status, made) = try await serve.request("POST", "\(base)/admin/v1/keys", bearer: token, json: json)
            #expect(status == 201, "\(name): \(made)")
            return try #require(made["secret"] as? String)
        }
        var callers: [Caller] = [
            Caller(name: "no credential", secret: nil, key: nil),
            Caller(name: "a wrong secret", secret: "purser_not-a-key-of-this-purser", key: nil),
            Caller(name: "the admin token", secret: token, key: Key(scopes: ["*"], apps: nil)),
        ]
        for scope in Self.scopes {
            let secret = try await make(
                "m-\(scope == "*" ? "all" : scope.replacingOccurrences(of: ":", with: "-"))",
                scopes: [scope], apps: nil)
            callers.append(Caller(name: "a \(scope) key", secret: secret, key: Key(scopes: [scope], apps: nil)))
        }
        let otherApp = try await make("m-racers", scopes: ["*"], apps: [Self.racers])
        callers.append(
            Caller(name: "another app's key", secret: otherApp, key: Key(scopes: ["*"], apps: [Self.racers])))
        let limited = try await make("m-dragons-keys", scopes: ["keys:admin"], apps: [Self.dragons])
        callers.append(
            Caller(
                name: "an app-limited keys:admin key", secret: limited,
                key: Key(scopes: ["keys:admin"], apps: [Self.dragons])))
        let revoked = try await make("m-revoked", scopes: ["*"], apps: nil)
        #expect(try await serve.request("DELETE", "\(base)/admin/v1/keys/m-revoked", bearer: token).0 == 200)
        callers.append(Caller(name: "a revoked key", secret: revoked, key: nil))
        let expired = "purser_m-expired-\(UUID().uuidString)"
        let ledger = try await SQLiteLedgerStore.open(
            path: directory.appendingPathComponent("data/purser.sqlite").path, logger: Logger(label: "test"))
        try await ledger.createAPIKey(
            APIKey(
                name: "m-expired", secretHash: Self.hash(expired), scopes: ["*"], apps: nil,
                createdAt: Date().addingTimeInterval(-7_200), createdBy: "test",
                expiresAt: Date().addingTimeInterval(-3_600)))
        try await ledger.close()
        callers.append(Caller(name: "an expired key", secret: expired, key: nil))
        _ = try await make("m-target", scopes: Array(Self.target.scopes), apps: Self.target.apps)

        // In each app: a hold placed and voided, so that a capture meets a resolved hold and a void replays.
        for app in [Self.dragons, Self.racers] {
            for (path, json) in [
                ("wallets/m-holder/transactions", #"{"id":"m-d","amounts":{"gold":5},"reason":"r"}"#),
                (
                    "wallets/m-holder/holds",
                    #"{"id":"m-voided","amounts":{"gold":1},"expiresInSeconds":600,"reason":"r"}"#
                ),
                ("holds/m-voided/void", nil),
            ] {
                let (status, answer) = try await serve.request(
                    "POST", "\(base)/admin/v1/\(path)", app: app, bearer: token, json: json)
                #expect(status == 200, "\(app) \(path): \(answer)")
            }
        }

        var asked = 0
        for route in Self.routes {
            for caller in callers {
                for app in [Self.dragons, Self.racers, nil] {
                    asked += 1
                    let expected = Self.expected(route, caller, app: app)
                    let (status, answer) = try await serve.request(
                        route.method, base + route.path, app: app, bearer: caller.secret,
                        json: route.body?(asked))
                    let code = (answer["error"] as? [String: Any])?["code"] as? String
                    #expect(
                        Answer(status: status, code: code) == expected,
                        "\(route.method) \(route.path) by \(caller.name), X-Purser-App \(app ?? "none"): \(answer)")
                }
            }
        }
        #expect(asked == Self.routes.count * 13 * 3)

        // What serve and the commands beside it wrote is the server's user's alone, whatever the umask.
        let data = directory.appendingPathComponent("data")
        let copy = directory.appendingPathComponent("racers-copy.sqlite").path
        let backup = try await PurserProcess.run(
            ["backup", "--config", config.path, "--app", Self.racers, "--to", copy])
        #expect(backup.status == 0, "\(backup.stderr)")
        let export = directory.appendingPathComponent("m-holder.json").path
        let exported = try await PurserProcess.run(
            ["users", "export", "m-holder", "--config", config.path, "--app", Self.racers, "--to", export])
        #expect(exported.status == 0 && exported.stdout.contains("exported: m-holder to \(export)"), "\(exported)")
        #expect(try String(contentsOfFile: export, encoding: .utf8).contains(#""userId" : "m-holder""#))
        let again = try await PurserProcess.run(
            ["users", "export", "m-holder", "--config", config.path, "--app", Self.racers, "--to", export])
        #expect(again.status != 0 && again.stderr.contains("never overwrites"), "\(again)")
        for (path, mode) in [
            (data.path, 0o700), (data.appendingPathComponent("apps").path, 0o700),
            (data.appendingPathComponent("purser.sqlite").path, 0o600),
            (data.appendingPathComponent("purser.sqlite-wal").path, 0o600),
            (data.appendingPathComponent("apps/\(Self.racers).sqlite").path, 0o600), (copy, 0o600), (export, 0o600),
        ] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == mode, "\(path)")
        }
    }

    /// The SHA-256 of a key's secret in hex, as the ledger finds keys by it.
    static func hash(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
