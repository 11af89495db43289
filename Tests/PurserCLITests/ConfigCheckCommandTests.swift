import Foundation
import Testing

/// `purser config check`: the effective configuration with its secrets redacted, and every problem at once.
@Suite struct ConfigCheckCommandTests {
    @Test func listsEveryProblemAndRedactsSecrets() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-check-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("purser.json")
        try #"""
        {"port": 0, "dataDirectory": "data", "catalogFile": "missing.json", "appStore": "simulator",
         "auth": {"mode": "development"}, "admin": {"token": "tok-secret-4711"},
         "webhooks": {"endpoints": [{"url": "ftp://game.example/hook", "secret": "whsec_c2VjcmV0LTQ3MTE="}]},
         "console": {"operators": [{"name": "li", "passwordHash": "not-a-hash-4711"}]},
         "http": {"trustedProxies": ["10.0.0.0/40"], "threads": -1}}
        """#.write(to: file, atomically: true, encoding: .utf8)
        let run = try await PurserProcess.run(["config", "check", "--config", file.path])
        #expect(run.status == 1)
        let problems = run.stderr.split(separator: "\n").filter { $0.hasPrefix("problem: ") }
        #expect(problems.count == 6, "the endpoint's URL and its secret are two: \(run.stderr)")
        for part in [
            "missing.json", "console.operators.0.passwordHash", "http.trustedProxies", "webhooks.endpoints[0]",
            "http.threads must be 0 (one event-loop thread per core) to 1024, not -1",
        ] {
            #expect(run.stderr.contains(part), "no problem names \(part): \(run.stderr)")
        }
        #expect(run.stdout.contains(#""token" : "<redacted>""#), "\(run.stdout)")
        #expect(run.stdout.contains(#""port" : 0"#), "\(run.stdout)")
        for secret in ["tok-secret-4711", "c2VjcmV0LTQ3MTE", "not-a-hash-4711"] {
            #expect(!(run.stdout + run.stderr).contains(secret), "\(secret) was printed")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("data").path))

        try #"""
        {"port": 0, "dataDirectory": "data", "appStore": "simulator", "auth": {"mode": "development"},
         "catalogFile": "catalog.json"}
        """#.write(to: file, atomically: true, encoding: .utf8)
        try #"{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}"#
            .write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
        let good = try await PurserProcess.run(["config", "check", "--config", file.path])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stderr.contains("no problems"))
    }

    /// A key of the wrong type, an unknown key, a catalog with three bad products and a webhook endpoint with a bad
    /// URL are listed together, in one run: `config check` once stopped at the first type error and printed nothing
    /// else.
    @Test func listsEveryKindOfProblemInOneRun() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-check-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (file, named) = try Self.everyKindOfProblem(in: directory)
        let run = try await PurserProcess.run(["config", "check", "--config", file.path])
        #expect(run.status == 1)
        let problems = run.stderr.split(separator: "\n").filter { $0.hasPrefix("problem: ") }
        #expect(problems.count == named.count, "\(run.stderr)")
        for part in named {
            #expect(problems.contains { $0.contains(part) }, "no problem names \(part): \(run.stderr)")
        }
        #expect(!run.stderr.contains("no problems"))
    }

    /// Writes a configuration (and its catalog) to `directory` with a problem of every kind: a key of the wrong type,
    /// an unknown key, three bad products and a webhook endpoint with a bad URL. Returns the file and a part of each
    /// problem's text.
    static func everyKindOfProblem(in directory: URL) throws -> (file: URL, named: [String]) {
        try #"""
        {"products": {"empty": {"type": "consumable", "grants": {}},
                      "zero": {"type": "consumable", "grants": {"gold": 0}},
                      "negative": {"type": "consumable", "grants": {"gold": -5}},
                      "gold60": {"type": "consumable", "grants": {"gold": 60}}}}
        """#.write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
        let file = directory.appendingPathComponent("purser.json")
        try #"""
        {"port": "eighty", "dataDirectory": "data", "catalogFile": "catalog.json", "appStore": "simulator",
         "auth": {"mode": "development"}, "webhook": {"timeoutSeconds": 3},
         "webhooks": {"endpoints": [{"url": "game.example.com/purser", "secret": "whsec_c2VjcmV0LTQ3MTEtc2VjcmV0LTQ3MTEtcw=="}]}}
        """#.write(to: file, atomically: true, encoding: .utf8)
        let named = [
            "configuration key port from \(file.path)", "unknown configuration key webhook (did you mean webhooks?)",
            "product empty grants nothing", "product negative has an invalid grant",
            "product zero has an invalid grant", "webhooks.endpoints[0].url must be an absolute http or https URL",
        ]
        return (file, named)
    }
}
