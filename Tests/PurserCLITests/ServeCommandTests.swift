import Foundation
import PurserChaos
import PurserCore
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs `purser serve` as the quick start does and drives it over HTTP.
@Suite struct ServeCommandTests {
    func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-serve-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A request as `user` with development authentication, as `app`'s client (`X-Purser-App`), or with `bearer`.
    func request(
        _ method: String, _ url: String, app: String? = nil, user: String? = nil, bearer: String? = nil,
        json: String? = nil
    ) async throws -> (Int, [String: Any]) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        if let app { request.setValue(app, forHTTPHeaderField: "X-Purser-App") }
        if let user { request.setValue(user, forHTTPHeaderField: "X-Purser-User") }
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(json.utf8)
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, object)
    }

    @Test func servesTheQuickStartFlow() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try #"{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}"#
            .write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
        try
            #"{"port": 0, "dataDirectory": "data", "catalogFile": "catalog.json", "appStore": "simulator", "auth": {"mode": "development"}}"#
            .write(to: directory.appendingPathComponent("purser.json"), atomically: true, encoding: .utf8)
        let process = try await start(["serve", "--config", directory.appendingPathComponent("purser.json").path])
        defer { if process.isRunning { process.terminate() } }

        var port: String?
        for _ in 0..<300 where port == nil {
            if let match = process.output.firstMatch(of: /listening on 127\.0\.0\.1:(\d+)/) { port = String(match.1) }
            try await Task.sleep(for: .milliseconds(100))
        }
        let base = "http://127.0.0.1:\(try #require(port, "no listening line in: \(process.output)"))"
        #expect(process.output.contains("APP STORE SIMULATOR IS ON"))
        #expect(process.output.contains("DEVELOPMENT AUTHENTICATION IS ON"))

        #expect(try await request("GET", "\(base)/health").0 == 200)
        let (created, order) = try await request(
            "POST", "\(base)/v1/orders", user: "alice", json: #"{"productId": "gold60"}"#)
        #expect(created == 201)
        let token = try #require(order["appAccountToken"] as? String)
        let (_, purchase) = try await request(
            "POST", "\(base)/simulator/v1/purchases",
            json: #"{"productId": "gold60", "appAccountToken": "\#(token)"}"#)
        let jws = try #require(purchase["signedTransaction"] as? String)
        let (status, decision) = try await request(
            "POST", "\(base)/v1/transactions", user: "alice",
            json: #"{"signedTransaction": "\#(jws)"}"#)
        #expect(status == 200)
        // The simulator's ONE_TIME_CHARGE notification races the app's submission; whichever arrives first
        // credits alice, and the other one is told so. Either way she is credited once (the wallet below).
        #expect(["delivered", "alreadyDelivered"].contains(decision["decision"] as? String ?? ""))
        #expect(decision["finish"] as? Bool == true)
        let (_, wallet) = try await request("GET", "\(base)/v1/wallet", user: "alice")
        #expect((wallet["balances"] as? [String: Int])?["gold"] == 60)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("data/purser.sqlite").path))
        #expect(
            FileManager.default.fileExists(
                atPath: directory.appendingPathComponent("data/appstore-sim/ca/root.der").path))

        // Support from the command line, against the running server's ledger and simulator.
        let config = directory.appendingPathComponent("purser.json").path
        let portNumber = String(base.split(separator: ":").last ?? "")
        let (_, lost) = try await request("POST", "\(base)/simulator/v1/purchases", json: #"{"productId": "gold60"}"#)
        let lostID = try #require(lost["transactionId"] as? String)
        for _ in 0..<50 {  // the simulator's sender delivers ONE_TIME_CHARGE within a few hundred milliseconds
            let (_, list) = try await request("GET", "\(base)/simulator/v1/notifications")
            let entries = list["notifications"] as? [[String: Any]] ?? []
            if entries.contains(where: { $0["transactionId"] as? String == lostID && $0["delivered"] as? Bool == true })
            {
                break
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        let (_, record) = try await request("GET", "\(base)/simulator/v1/server-api/purchases/\(lostID)")
        let appleOrder = try #require(record["appleOrderId"] as? String)
        let lookup = try await PurserProcess.run([
            "lookup", "--config", config, "--port", portNumber, "--order-id", appleOrder,
        ])
        #expect(lookup.status == 0, "\(lookup.stderr)")
        #expect(lookup.stdout.contains("\"ledger\" : \"unbound\""), "\(lookup.stdout)")
        let grant = try await PurserProcess.run([
            "grant", "--config", config, "--port", portNumber, "--transaction-id", lostID,
            "--user", "bob", "--reason", "ticket 1: paid, got nothing", "--operator", "sam",
        ])
        #expect(grant.status == 0, "\(grant.stderr)")
        let (_, bobs) = try await request("GET", "\(base)/v1/wallet", user: "bob")
        #expect((bobs["balances"] as? [String: Int])?["gold"] == 60)
        // The grant told Apple: the purchase is finished there and its record names bob's account.
        let (_, told) = try await request("GET", "\(base)/simulator/v1/server-api/purchases/\(lostID)")
        #expect(told["finished"] as? Bool == true)
        let apples = try #require(told["transaction"] as? [String: Any])
        #expect(apples["appAccountToken"] as? String == OrderID.accountToken(for: "bob").description)
        // Both purchases were made on the simulator's default device: one Apple account, one appTransactionId.
        let account = try #require(apples["appTransactionId"] as? String)
        let byAccount = try await PurserProcess.run([
            "lookup", "--config", config, "--port", portNumber, "--app-transaction-id", account,
        ])
        #expect(byAccount.status == 0, "\(byAccount.stderr)")
        #expect(byAccount.stdout.components(separatedBy: "\"appTransactionId\" : \"\(account)\"").count == 3)
        #expect(byAccount.stdout.contains("\"transactionId\" : \"\(lostID)\""), "\(byAccount.stdout)")
        // Nothing found is one rule for every kind of id: exit 1, `not_found: …` (an unknown order once exited 0).
        for (flag, id) in [
            ("--order-id", "MZZZZZZZZZ"), ("--transaction-id", "9999999"), ("--app-transaction-id", "1"),
        ] {
            let none = try await PurserProcess.run(["lookup", "--config", config, "--port", portNumber, flag, id])
            #expect(none.status == 1, "\(flag): \(none.stdout)")
            #expect(none.stderr.hasPrefix("not_found: "), "\(flag): \(none.stderr)")
        }
        let reconcile = try await PurserProcess.run(["reconcile", "--config", config, "--port", portNumber, "--json"])
        #expect(reconcile.status == 0, "\(reconcile.stderr)")
        #expect(reconcile.stdout.contains("\"credited\":0"), "\(reconcile.stdout)")
        // A user's data on request: bob's export, then his erasure while the server runs.
        let export = try await PurserProcess.run(["users", "export", "bob", "--config", config, "--port", portNumber])
        #expect(export.status == 0 && export.stdout.contains("\"apple_transactions\""), "\(export.stderr)")
        let erase = try await PurserProcess.run(
            ["users", "erase", "bob", "--config", config, "--port", portNumber, "--operator", "sam"],
            environment: ["PURSER_ERASURE_KEY": "a key for the pseudonyms"])
        #expect(erase.status == 0 && erase.stdout.contains("rows that still hold the id: 0"), "\(erase.stdout)")
        #expect(erase.stdout.contains("bob is erased-"), "\(erase.stdout)")
        let (_, erased) = try await request("GET", "\(base)/v1/wallet", user: "bob")
        #expect((erased["balances"] as? [String: Int])?.isEmpty == true, "bob's gold is the pseudonym's now")
        let again = try await PurserProcess.run(
            ["users", "erase", "bob", "--config", config, "--port", portNumber],
            environment: ["PURSER_ERASURE_KEY": "a key for the pseudonyms"])
        #expect(again.status == 1 && again.stderr.hasPrefix("not_found: "), "\(again.stderr)")

        process.terminate()
        await process.waitUntilExit()
        #expect(process.terminationStatus == 0, "output: \(process.output)")
    }

    @Test func refusesAnUnusableConfiguration() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let noCatalog = try await start(["serve", "--data-dir", directory.path, "--port", "0"])
        let noCatalogText = await noCatalog.outputAfterExit()
        #expect(noCatalog.terminationStatus == 1)
        #expect(noCatalogText.contains("purser: no product catalog"))
        #expect(!noCatalogText.contains("Usage:"), "a configuration error is not a usage error: \(noCatalogText)")

        try #"{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}"#
            .write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
        let noSecret = try await start([
            "serve", "--data-dir", directory.path, "--port", "0",
            "--catalog", directory.appendingPathComponent("catalog.json").path,
        ])
        let noSecretText = await noSecret.outputAfterExit()
        #expect(noSecret.terminationStatus == 1)
        #expect(noSecretText.contains("HS256 needs a secret"))
        // A failed start leaves no ledger behind.
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("purser.sqlite").path))
    }

    /// A port another process holds is a configuration error naming the port and its key (NIO's "Address already
    /// in use" named neither), exit 1.
    @Test func aTakenPortIsNamedWithItsKey() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try #"{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}"#
            .write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
        let arguments = [
            "serve", "--auth", "development", "--catalog", directory.appendingPathComponent("catalog.json").path,
        ]
        let (first, port) = try await launch(
            arguments + ["--data-dir", directory.appendingPathComponent("a").path, "--port", "0"], environment: [:])
        defer { first.terminate() }
        let second = try await start(
            arguments + ["--data-dir", directory.appendingPathComponent("b").path, "--port", String(port)])
        let text = await second.outputAfterExit()
        #expect(second.terminationStatus == 1)
        #expect(text.contains("127.0.0.1:\(port), set by `port` (--port)"), "\(text)")
    }

    /// A database that cannot be reached at start is a clear error and a non-zero exit, and the password in the
    /// environment appears nowhere in what the server printed.
    @Test func refusesToStartWithoutItsDatabase() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try #"{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}"#
            .write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
        let process = try await start(
            [
                "serve", "--data-dir", directory.path, "--port", "0", "--auth", "development",
                "--catalog", directory.appendingPathComponent("catalog.json").path,
                "--database-url", "postgres://purser@127.0.0.1:1/ledger",
            ], environment: ["PURSER_DATABASE_PASSWORD": "pw-7f3e-never-printed"])
        let text = await process.outputAfterExit()
        #expect(process.terminationStatus != 0)
        #expect(text.contains("the ledger cannot be reached at start"), "\(text)")
        #expect(!text.contains("pw-7f3e-never-printed"))
    }
}
