import Foundation
import PurserChaos
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Support while Apple does not answer: the ledger's record comes first, and fast.
extension ServeCommandTests {
    /// With the App Store (a simulator in its own process) stopped mid-flight, `GET /admin/v1/transactions/{id}` of a
    /// credited transaction answers the ledger's record within seconds, `apple` "unanswered"; it once hung 93 s and
    /// answered 502.
    @Test func aLookupWhileAppleIsStoppedAnswersFromTheLedger() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (simulator, simulatorURL) = try await startSimulator(in: directory)
        defer {
            simulator.send(SIGCONT)
            simulator.terminate()
        }
        let file = directory.appendingPathComponent("purser.json")
        try """
        {"port": 0, "dataDirectory": "data", "catalogFile": "catalog.json", "appStore": "simulator",
         "simulator": {"url": "\(simulatorURL)"}, "auth": {"mode": "development"},
         "admin": {"token": "support-token-1"}, "reconciliation": {"intervalSeconds": 0},
         "finishing": {"intervalSeconds": 0}}
        """.write(to: file, atomically: true, encoding: .utf8)
        let (serve, port) = try await launch(["serve", "--config", file.path], environment: [:])
        defer { serve.terminate() }
        let base = "http://127.0.0.1:\(port)"
        let (jws, id) = try await buyGold60(as: "nina", at: base, simulator: simulatorURL)
        let (submitted, decision) = try await request(
            "POST", "\(base)/v1/transactions", user: "nina", json: #"{"signedTransaction": "\#(jws)"}"#)
        #expect(submitted == 200 && decision["decision"] as? String == "delivered", "\(decision)")

        simulator.send(SIGSTOP)  // Apple hangs: connections open, nothing answers
        var lookup = URLRequest(url: URL(string: "\(base)/admin/v1/transactions/\(id)")!)
        lookup.setValue("Bearer support-token-1", forHTTPHeaderField: "Authorization")
        lookup.timeoutInterval = 30
        let (data, response) = try await URLSession.shared.data(for: lookup)
        let view = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(view)")
        #expect(view["ledger"] as? String == "credited" && view["ownerId"] as? String == "nina", "\(view)")
        #expect(view["apple"] as? String == "unanswered", "\(view)")
        #expect((view["appleError"] as? String ?? "").contains("did not answer"), "\(view)")
    }
}
