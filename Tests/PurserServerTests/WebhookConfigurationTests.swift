import Foundation
import Logging
import PurserServer
import PurserWebhooks
import Testing

/// `webhooks` in the configuration: endpoints as the JSON array the server guide shows, secrets from the file or the
/// environment (several per endpoint, for rotation), redacted in logs, and a clear error at start for a malformed
/// URL, secret or event type.
@Suite struct WebhookConfigurationTests {
    static let first = WebhookSecret.generate().serialized
    static let second = WebhookSecret.generate().serialized

    func load(_ json: String, environment: [String: String] = [:], logger: Logger? = nil) async throws
        -> ServerConfiguration
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-hooks-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("purser.json")
        try json.write(to: file, atomically: true, encoding: .utf8)
        return try await ServerConfiguration.load(file: file, environment: environment, logger: logger)
    }

    @Test func readsEndpointsFromTheFileAndSecretsFromTheEnvironment() async throws {
        let lines = ServerConfigurationSecretTests.CapturingLogHandler.Lines()
        let logger = Logger(label: "test") { _ in ServerConfigurationSecretTests.CapturingLogHandler(lines: lines) }
        let settings = try await load(
            """
            {"port": 9040, "webhooks": {"endpoints": [
                {"url": "https://game.example.com/purser", "events": ["transaction.credited"]},
                {"url": "http://127.0.0.1:9999/hooks", "secrets": ["\(Self.first)", "\(Self.second)"]}],
              "retrySeconds": [1, 2.5], "timeoutSeconds": 3, "concurrency": 4}}
            """, environment: ["PURSER_WEBHOOKS_ENDPOINTS_0_SECRET": Self.first], logger: logger)
        let webhooks = settings.webhooks
        #expect(webhooks.endpoints.map(\.url) == ["https://game.example.com/purser", "http://127.0.0.1:9999/hooks"])
        #expect(webhooks.endpoints.map(\.secrets) == [[Self.first], [Self.first, Self.second]])
        #expect(webhooks.endpoints.map(\.events) == [["transaction.credited"], nil])
        #expect(webhooks.retrySeconds == [1, 2.5])
        #expect(webhooks.timeoutSeconds == 3)
        #expect(webhooks.concurrency == 4)
        let checked = try webhooks.checkedEndpoints()
        #expect(checked.map(\.secrets.count) == [1, 2])
        #expect(checked.first?.types == ["transaction.credited"])
        let logged = lines.all.joined(separator: "\n")
        #expect(logged.contains("webhooks"), "the access log saw the keys")
        for secret in [Self.first, Self.second] {
            #expect(!logged.contains(String(secret.dropFirst(6))), "a secret reached a log line")
        }
    }

    /// `ordered` per endpoint, from the file or the environment, `false` when absent; a misspelt one is refused.
    @Test func readsOrderedPerEndpoint() async throws {
        let settings = try await load(
            """
            {"webhooks": {"endpoints": [
                {"url": "https://game.example.com/purser", "secret": "\(Self.first)", "ordered": true},
                {"url": "https://audit.example.com/purser", "secret": "\(Self.first)"},
                {"url": "https://other.example.com/purser", "secret": "\(Self.first)"}]}}
            """, environment: ["PURSER_WEBHOOKS_ENDPOINTS_2_ORDERED": "true"])
        #expect(settings.webhooks.endpoints.map(\.ordered) == [true, false, true])
        #expect(try settings.webhooks.checkedEndpoints().map(\.ordered) == [true, false, true])
        await #expect {
            _ = try await load(
                """
                {"webhooks": {"endpoints": [{"url": "https://game.example.com/purser", "secret": "\(Self.first)",
                                             "orderd": true}]}}
                """)
        } throws: { error in
            "\(error)".contains("webhooks.endpoints.0.orderd (did you mean webhooks.endpoints.0.ordered?)")
        }
    }

    @Test func refusesAMalformedURLSecretOrEventTypeNamingTheKey() throws {
        func problem(_ endpoint: ServerConfiguration.Webhooks.Endpoint) -> String? {
            var webhooks = ServerConfiguration.Webhooks()
            webhooks.endpoints = [endpoint]
            do {
                _ = try webhooks.checkedEndpoints()
                return nil
            } catch {
                return error.description
            }
        }
        #expect(problem(.init(url: "game.example.com/purser", secrets: [Self.first]))?.contains(".url") == true)
        #expect(problem(.init(url: "ftp://game.example.com", secrets: [Self.first]))?.contains(".url") == true)
        #expect(problem(.init(url: "https://game.example.com", secrets: []))?.contains("needs a secret") == true)
        let short = "whsec_" + Data(count: 8).base64EncodedString()
        let bad = try #require(problem(.init(url: "https://game.example.com", secrets: [Self.first, short])))
        #expect(bad.contains("webhooks.endpoints[0] secret 2"))
        #expect(!bad.contains(short), "the message never shows the secret")
        #expect(
            problem(.init(url: "https://game.example.com", secrets: [Self.first], events: ["order.created"]))?
                .contains("order.created") == true)
        #expect(problem(.init(url: "https://game.example.com", secrets: [Self.first])) == nil)
    }
}
