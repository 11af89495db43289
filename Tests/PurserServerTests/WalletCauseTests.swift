import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import PurserServer
import PurserWebhooks
import Testing

/// Every `cause` a `wallet.changed` event carries is one the receiver's guide lists: the guide's table is read, its
/// patterns (`<name>`, `<operator>` standing for any text) matched against the causes of changes made with each kind
/// of caller. An API key's deposit was `admin by key:NAME`, which no document named.
@Suite struct WalletCauseTests {
    /// The patterns of the guide's `wallet.changed` row as regular expressions, e.g. `^admin by key:.+$`.
    static func documentedCauses() throws -> [String] {
        let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(
                "Sources/PurserWebhooks/PurserWebhooks.docc/ReceivingEvents.md")
        let text = try String(contentsOf: guide, encoding: .utf8)
        let row = try #require(text.split(separator: "\n").first { $0.hasPrefix("| `wallet.changed`") })
        let causes = try #require(row.firstMatch(of: /`cause` \((.*?)\), `reason`/)).1
        return causes.matches(of: /`([^`]+)`/).map { match in
            "^"
                + NSRegularExpression.escapedPattern(for: String(match.1))
                .replacingOccurrences(of: "<name>", with: ".+").replacingOccurrences(of: "<operator>", with: ".+")
                + "$"
        }
    }

    @Test func everyCauseAChangeCarriesIsDocumented() async throws {
        let documented = try Self.documentedCauses()
        #expect(documented.count >= 6, "the guide's causes: \(documented.count)")
        let backend = TestGameBackend()
        try await backend.serving { url in
            try await TestServer.run(configure: { configuration in
                configuration.wallet.clientSpend = true
                configuration.webhooks.endpoints = [
                    .init(url: url.absoluteString, secrets: [backend.secret.serialized])
                ]
                configuration.webhooks.pollIntervalSeconds = 0.02
            }) { _, client in
                let made = try await client.admin(
                    .post, "/admin/v1/keys", body: #"{"name": "backend", "scopes": ["wallet:write"]}"#)
                let secret = try #require(
                    (try JSONSerialization.jsonObject(with: Data(String(buffer: made.body).utf8)) as? [String: Any])?[
                        "secret"]
                        as? String)
                func deposit(_ id: String, operator name: String?) async throws {
                    var headers: HTTPFields = [.authorization: "Bearer \(secret)", .contentType: "application/json"]
                    if let name { headers[HTTPField.Name("X-Purser-Operator")!] = name }
                    let response = try await client.execute(
                        uri: "/admin/v1/wallets/amy/transactions", method: .post, headers: headers,
                        body: ByteBuffer(string: #"{"id": "\#(id)", "amounts": {"gold": 10}, "reason": "r"}"#))
                    #expect(response.status == .ok, "\(String(buffer: response.body))")
                }
                _ = try await client.admin(
                    .post, "/admin/v1/wallets/amy/transactions",
                    body: #"{"id": "legacy", "amounts": {"gold": 10}, "reason": "r"}"#)
                try await deposit("by-key", operator: nil)
                try await deposit("by-operator", operator: "sam")
                let spent = try await client.post(
                    "/v1/wallet/spend", user: "amy",
                    body: ByteBuffer(string: #"{"id": "app", "amounts": {"gold": -5}, "reason": "sword"}"#))
                #expect(spent.status == .ok)
                let deadline = ContinuousClock.now + .seconds(10)
                while backend.posts.count < 4, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                let causes = backend.posts.compactMap(\.event.walletChange?.cause)
                #expect(Set(causes) == ["admin", "admin by key:backend", "admin by sam via key:backend", "app"])
                for cause in causes {
                    let listed = try documented.contains { try Regex<Substring>($0).wholeMatch(in: cause) != nil }
                    #expect(listed, "\(cause) is not in the guide")
                }
            }
        }
    }
}
