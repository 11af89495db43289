import Foundation
import PurserChaos
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `X-Request-Id` on every answer of a running `purser serve`, and the id in the JSON log of what the request did.
extension ServeCommandTests {
    /// `method` `url` with `headers` (and a JSON `body`): the status, the answer's `X-Request-Id` and its JSON.
    func exchange(_ method: String, _ url: String, headers: [String: String] = [:], json body: String? = nil)
        async throws -> (status: Int, requestID: String?, body: [String: Any])
    {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(body.utf8)
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (http?.statusCode ?? 0, http?.value(forHTTPHeaderField: "X-Request-Id"), object)
    }

    /// A `serve` on the quick start's settings (the simulator inside it, development authentication) in `directory`,
    /// with `extra` settings in its file and its log in JSON; its process and base URL.
    func launchJSONServe(in directory: URL, extra: String = "") async throws -> (ChildProcess, String) {
        try #"{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}"#
            .write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
        let file = directory.appendingPathComponent("purser.json")
        try """
        {"port": 0, "dataDirectory": "data", "catalogFile": "catalog.json", "appStore": "simulator",
         "auth": {"mode": "development"}, "reconciliation": {"intervalSeconds": 0}\(extra)}
        """.write(to: file, atomically: true, encoding: .utf8)
        let (process, port) = try await launch(
            ["serve", "--config", file.path, "--log-format", "json"], environment: [:])
        return (process, "http://127.0.0.1:\(port)")
    }

    /// Every answer carries an id, a client's own is replaced (no trusted proxy), and the decision's one info line
    /// carries the id the answer gave, the app, the user, the decision and the transaction.
    @Test func everyAnswerHasARequestIDAndTheDecisionLineCarriesIt() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (process, base) = try await launchJSONServe(in: directory)
        defer { if process.isRunning { process.terminate() } }

        let health = try await exchange("GET", "\(base)/health")
        let missing = try await exchange("GET", "\(base)/no/such/route")
        let unauthenticated = try await exchange("GET", "\(base)/v1/wallet")
        #expect(health.status == 200 && missing.status == 404 && unauthenticated.status == 401)
        let ids = [health.requestID, missing.requestID, unauthenticated.requestID].compactMap { $0 }
        #expect(ids.count == 3 && Set(ids).count == 3, "\(ids)")
        let claimed = try await exchange("GET", "\(base)/health", headers: ["X-Request-Id": "client-chosen-1"])
        #expect(claimed.requestID != nil && claimed.requestID != "client-chosen-1", "an untrusted client's id was kept")

        let (_, order) = try await request(
            "POST", "\(base)/v1/orders", user: "alice", json: #"{"productId": "gold60"}"#)
        let token = try #require(order["appAccountToken"] as? String)
        let (_, purchase) = try await request(
            "POST", "\(base)/simulator/v1/purchases", json: #"{"productId": "gold60", "appAccountToken": "\#(token)"}"#)
        let jws = try #require(purchase["signedTransaction"] as? String)
        let transactionID = try #require(purchase["transactionId"] as? String)
        let submitted = try await exchange(
            "POST", "\(base)/v1/transactions", headers: ["X-Purser-User": "alice", "X-Request-Id": "client-chosen-2"],
            json: #"{"signedTransaction": "\#(jws)"}"#)
        #expect(submitted.status == 200)
        let requestID = try #require(submitted.requestID)
        #expect(requestID != "client-chosen-2")

        process.terminate()
        let entries = try JSONLogLines.parse(await process.outputAfterExit(), file: "serve's output")
        let mine = entries.filter { $0["request_id"] == requestID }
        #expect(mine.count == 1, "at info level a decided submission logs one line: \(mine)")
        let decided = try #require(mine.first { $0["message"] == "transaction decided" }, "\(entries)")
        #expect(decided["level"] == "info")
        #expect(decided["transaction_id"] == transactionID)
        #expect(decided["user_id"] == "alice")
        #expect(decided["app"] == "com.example.purser.demo")
        #expect(["delivered", "alreadyDelivered"].contains(decided["decision"] ?? ""), "\(decided)")
        #expect(!entries.contains { $0["request_id"] == "client-chosen-1" || $0["request_id"] == "client-chosen-2" })
    }

    /// Behind a trusted proxy (`http.trustedProxies`, here the loopback the test calls from) the proxy's id is kept,
    /// and goes in the log; one that is too long or not visible ASCII is replaced.
    @Test func aTrustedProxysRequestIDIsKept() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (process, base) = try await launchJSONServe(
            in: directory, extra: #", "http": {"trustedProxies": ["127.0.0.1/32"]}"#)
        defer { if process.isRunning { process.terminate() } }

        let kept = try await exchange(
            "GET", "\(base)/v1/wallet", headers: ["X-Request-Id": "lb-4f2a9c", "X-Purser-User": "kim"])
        #expect(kept.status == 200 && kept.requestID == "lb-4f2a9c")
        let missing = try await exchange("GET", "\(base)/nowhere", headers: ["X-Request-Id": "lb-4f2a9d"])
        #expect(missing.status == 404 && missing.requestID == "lb-4f2a9d")
        for bad in [String(repeating: "x", count: 129), "has space", "has\ttab"] {
            let replaced = try await exchange("GET", "\(base)/health", headers: ["X-Request-Id": bad])
            #expect(replaced.requestID != nil && replaced.requestID != bad, "\(bad)")
        }
        let (_, order) = try await request("POST", "\(base)/v1/orders", user: "kim", json: #"{"productId": "gold60"}"#)
        let token = try #require(order["appAccountToken"] as? String)
        let (_, purchase) = try await request(
            "POST", "\(base)/simulator/v1/purchases", json: #"{"productId": "gold60", "appAccountToken": "\#(token)"}"#)
        let jws = try #require(purchase["signedTransaction"] as? String)
        let submitted = try await exchange(
            "POST", "\(base)/v1/transactions", headers: ["X-Purser-User": "kim", "X-Request-Id": "lb-decision-1"],
            json: #"{"signedTransaction": "\#(jws)"}"#)
        #expect(submitted.status == 200 && submitted.requestID == "lb-decision-1")

        process.terminate()
        let entries = try JSONLogLines.parse(await process.outputAfterExit(), file: "serve's output")
        let decided = entries.filter { $0["request_id"] == "lb-decision-1" }
        #expect(decided.count == 1 && decided.first?["message"] == "transaction decided", "\(decided)")
        #expect(decided.first?["transaction_id"] == purchase["transactionId"] as? String)
    }
}
