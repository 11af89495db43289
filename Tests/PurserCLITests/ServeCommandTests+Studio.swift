import Foundation
import PurserChaos
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One `purser serve` for a studio of two games, with the App Store simulator it hosts selling for both: each app
/// has its own ledger and wallets, a transaction of one app never credits the other, Apple's notifications reach the
/// app they name, keys limited to one app find nothing of the other, and metrics say which app did what.
extension ServeCommandTests {
    static let dragons = "com.example.dragons"
    static let racers = "com.example.racers"

    /// Writes the studio's catalogs and configuration in `directory`; the configuration file.
    func writeStudio(in directory: URL, apps: [String]) throws -> URL {
        try #"{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}"#
            .write(to: directory.appendingPathComponent("dragons.json"), atomically: true, encoding: .utf8)
        try #"{"products": {"gems10": {"type": "consumable", "grants": {"gems": 10}}}}"#
            .write(to: directory.appendingPathComponent("racers.json"), atomically: true, encoding: .utf8)
        let entries = apps.map { app in
            #"{"bundleId": "\#(app)", "catalogFile": "\#(app == Self.dragons ? "dragons" : "racers").json"}"#
        }
        let config = directory.appendingPathComponent("studio.json")
        try """
        {"port": 0, "dataDirectory": "data", "appStore": "simulator", "auth": {"mode": "development"},
         "admin": {"token": "studio-admin-token"}, "metrics": {"port": 0}, "reconciliation": {"intervalSeconds": 0},
         "apps": [\(entries.joined(separator: ", "))]}
        """.write(to: config, atomically: true, encoding: .utf8)
        return config
    }

    /// `user` buys `product` in `app` at the hosted simulator with an order's token: the signed transaction and id.
    func buy(_ product: String, in app: String, as user: String, at base: String) async throws -> (String, String) {
        let (created, order) = try await request(
            "POST", "\(base)/v1/orders", app: app, user: user, json: #"{"productId": "\#(product)"}"#)
        #expect(created == 201, "\(order)")
        let token = try #require(order["appAccountToken"] as? String)
        let (_, purchase) = try await request(
            "POST", "\(base)/simulator/v1/purchases",
            json: #"{"productId": "\#(product)", "appAccountToken": "\#(token)", "bundleId": "\#(app)"}"#)
        return (
            try #require(purchase["signedTransaction"] as? String), try #require(purchase["transactionId"] as? String)
        )
    }

    func balances(of user: String, in app: String, at base: String) async throws -> [String: Int] {
        let (status, wallet) = try await request("GET", "\(base)/v1/wallet", app: app, user: user)
        #expect(status == 200, "\(wallet)")
        return wallet["balances"] as? [String: Int] ?? [:]
    }

    @Test func oneServeForTwoGamesKeepsEachGamesMoneyApart() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try writeStudio(in: directory, apps: [Self.dragons, Self.racers])
        let (server, port) = try await launch(["serve", "--config", config.path], environment: [:])
        defer { server.terminate() }
        let base = "http://127.0.0.1:\(port)"
        #expect(server.output.contains("serving 2 apps, each with its own ledger: \(Self.dragons), \(Self.racers)"))

        // Several apps: the client must name its own; an app this Purser does not serve is not found.
        let (anonymous, required) = try await request(
            "POST", "\(base)/v1/orders", user: "kim", json: #"{"productId": "gold60"}"#)
        #expect(
            anonymous == 400 && (required["error"] as? [String: Any])?["code"] as? String == "app_required",
            "\(required)")
        let (stranger, unknown) = try await request("GET", "\(base)/v1/wallet", app: "com.example.other", user: "kim")
        #expect(
            stranger == 404 && (unknown["error"] as? [String: Any])?["code"] as? String == "unknown_app", "\(unknown)")
        #expect(try await request("GET", "\(base)/health").0 == 200)

        // The same user in two games has two wallets; each app knows only its own catalog.
        let (gold, goldID) = try await buy("gold60", in: Self.dragons, as: "kim", at: base)
        let (credited, decision) = try await request(
            "POST", "\(base)/v1/transactions", app: Self.dragons, user: "kim",
            json: #"{"signedTransaction": "\#(gold)"}"#)
        #expect(credited == 200 && ["delivered", "alreadyDelivered"].contains(decision["decision"] as? String ?? ""))
        let (gems, gemsID) = try await buy("gems10", in: Self.racers, as: "kim", at: base)
        // A racers transaction submitted as dragons is rejected, and credits nothing anywhere it was sent.
        let (wrong, refusal) = try await request(
            "POST", "\(base)/v1/transactions", app: Self.dragons, user: "kim",
            json: #"{"signedTransaction": "\#(gems)"}"#)
        #expect(wrong == 200 && refusal["decision"] as? String == "rejected", "\(refusal)")
        #expect((refusal["reason"] as? [String: Any])?["code"] as? String == "wrong_bundle", "\(refusal)")
        let (right, accepted) = try await request(
            "POST", "\(base)/v1/transactions", app: Self.racers, user: "kim",
            json: #"{"signedTransaction": "\#(gems)"}"#)
        #expect(right == 200 && ["delivered", "alreadyDelivered"].contains(accepted["decision"] as? String ?? ""))
        #expect(try await balances(of: "kim", in: Self.dragons, at: base) == ["gold": 60])
        #expect(try await balances(of: "kim", in: Self.racers, at: base) == ["gems": 10])
        let (otherCatalog, _) = try await request(
            "POST", "\(base)/v1/orders", app: Self.racers, user: "kim", json: #"{"productId": "gold60"}"#)
        #expect(otherCatalog == 422)

        // Apple refunds the racers purchase; its notification (one URL for all apps) reaches racers' ledger only.
        #expect(try await request("POST", "\(base)/simulator/v1/transactions/\(gemsID)/refund").0 == 200)
        var revoked = false
        for _ in 0..<100 where !revoked {
            let (_, view) = try await request(
                "GET", "\(base)/admin/v1/transactions/\(gemsID)", app: Self.racers, bearer: "studio-admin-token")
            revoked = (view["ledger"] as? String) == "revoked"
            if !revoked { try await Task.sleep(for: .milliseconds(100)) }
        }
        let (_, finalView) = try await request(
            "GET", "\(base)/admin/v1/transactions/\(gemsID)", app: Self.racers, bearer: "studio-admin-token")
        #expect(revoked, "\(finalView)")
        #expect(try await balances(of: "kim", in: Self.racers, at: base) == ["gems": 0])
        #expect(try await balances(of: "kim", in: Self.dragons, at: base) == ["gold": 60])
        // Each ledger credits only its own app's transactions: Dragons' holds the Racers one as the rejection it
        // answered, which Apple does not know as a Dragons transaction.
        let (rejected, record) = try await request(
            "GET", "\(base)/admin/v1/transactions/\(gemsID)", app: Self.dragons, bearer: "studio-admin-token")
        #expect(rejected == 200 && record["ledger"] as? String == "rejected", "\(record)")
        #expect((record["rejection"] as? [String: Any])?["code"] as? String == "wrong_bundle", "\(record)")
        #expect(record["apple"] as? String == "not found", "\(record)")
        let (found, _) = try await request(
            "GET", "\(base)/admin/v1/transactions/\(goldID)", app: Self.dragons, bearer: "studio-admin-token")
        #expect(found == 200)

        // A key of racers only finds nothing of dragons; made on the command line, in the studio's ledger.
        let made = try await PurserProcess.run([
            "keys", "create", "--config", config.path, "--name", "racers-backend", "--scopes", "ledger:read",
            "--apps", Self.racers,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let secret = try #require(made.stdout.firstMatch(of: /secret: (purser_\S+)/).map { String($0.1) })
        #expect(try await request("GET", "\(base)/admin/v1/wallets/kim", app: Self.racers, bearer: secret).0 == 200)
        #expect(try await request("GET", "\(base)/admin/v1/wallets/kim", app: Self.dragons, bearer: secret).0 == 404)

        // Metrics carry the app.
        let metricsPort = try #require(server.output.firstMatch(of: /metrics at http:\/\/127\.0\.0\.1:(\d+)/)?.1)
        let (scrape, _) = try await URLSession.shared.data(
            from: URL(string: "http://127.0.0.1:\(metricsPort)/metrics")!)
        let text = String(decoding: scrape, as: UTF8.self)
        #expect(text.contains(#"purser_decisions_total{app="\#(Self.racers)",decision="rejected"}"#) == false)
        #expect(text.contains(#"purser_decisions_total{app="\#(Self.dragons)",decision="rejected"}"#), "\(text)")
        #expect(text.contains(#"purser_wallet_holds_open{app="\#(Self.racers)"}"#), "\(text)")

        // Apple's notification for a bundle no app serves is acknowledged, counted, and recorded in no ledger.
        let (bought, purchase) = try await request(
            "POST", "\(base)/simulator/v1/purchases",
            json: #"{"productId": "gold60", "bundleId": "com.example.stranger"}"#)
        #expect((200..<300).contains(bought), "\(purchase)")
        let ignored = #"purser_notifications_ignored_total{app="\#(Self.dragons)",reason="unknown_bundle"} 1"#
        var counted = false
        for _ in 0..<100 where !counted {
            let (scraped, _) = try await URLSession.shared.data(
                from: URL(string: "http://127.0.0.1:\(metricsPort)/metrics")!)
            counted = String(decoding: scraped, as: UTF8.self).contains(ignored)
            if !counted { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(counted, "\(ignored)")
        let strangerID = try #require(purchase["transactionId"] as? String)
        let (unrecorded, _) = try await request(
            "GET", "\(base)/admin/v1/transactions/\(strangerID)", app: Self.dragons, bearer: "studio-admin-token")
        #expect(unrecorded == 404, "recorded in no ledger")

        let data = directory.appendingPathComponent("data")
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("purser.sqlite").path))
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("apps/\(Self.racers).sqlite").path))
        server.terminate()
        _ = await server.waitUntilExit()

        // Each app's ledger is checked and backed up on its own.
        let checked = try await PurserProcess.run(["ledger", "check", "--config", config.path, "--app", Self.racers])
        #expect(checked.status == 0 && checked.stdout.contains("apps/\(Self.racers).sqlite"), "\(checked.stdout)")
        let copy = directory.appendingPathComponent("racers-backup.sqlite").path
        let backup = try await PurserProcess.run([
            "backup", "--config", config.path, "--app", Self.racers, "--to", copy,
        ])
        #expect(backup.status == 0 && FileManager.default.fileExists(atPath: copy), "\(backup.stderr)")
        let unserved = try await PurserProcess.run(["ledger", "check", "--config", config.path, "--app", "com.x"])
        #expect(
            unserved.status == 1
                && unserved.stderr.contains("this configuration serves \(Self.dragons), \(Self.racers)"))

        // Listed the other way round, the first app would take the other's ledger: serve refuses to start.
        let swapped = try writeStudio(in: directory, apps: [Self.racers, Self.dragons])
        let refused = try await start(["serve", "--config", swapped.path])
        #expect(await refused.waitUntilExit() != 0)
        #expect(refused.output.contains("belongs to the app \(Self.dragons), not \(Self.racers)"), "\(refused.output)")
    }
}
