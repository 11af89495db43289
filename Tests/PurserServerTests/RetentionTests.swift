import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PurserServer
import PurserStorage
import PurserWebhooks
import Synchronization
import Testing

/// Retention inside `serve` (`retention.days`): once a delivered webhook event is older than the period, its payload
/// is pruned by the leased job and a replay of it is 410 `event_pruned`; the balance, the event's row and the ledger
/// check are untouched. With `retention.days` 0 nothing is pruned.
@Suite struct RetentionTests {
    @Test func prunesADeliveredEventsPayloadOnceItIsOlderThanThePeriod() async throws {
        let pruned = try await deliverThenAge(days: 1)
        #expect(pruned.status == .gone)
        #expect(pruned.code == "event_pruned", "\(pruned.body)")
    }

    @Test func keepsEverythingWithRetentionOff() async throws {
        let kept = try await deliverThenAge(days: 0)
        #expect(kept.status == .ok, "a replay of the event: \(kept.body)")
    }

    /// Deposits gold for zoe, waits until the game backend has the event, moves the server's clock three days on,
    /// gives the retention job time to run, and answers a replay of the event.
    func deliverThenAge(days: Int) async throws -> (status: HTTPResponse.Status, code: String?, body: String) {
        let clock = Mutex(Date())
        let backend = TestGameBackend()
        return try await backend.serving { url in
            let answer = Mutex<(HTTPResponse.Status, String?, String)?>(nil)
            try await TestServer.run(
                configure: { Self.configure(&$0, days: days, webhook: url, secret: backend.secret.serialized) },
                now: { clock.withLock { $0 } }
            ) { server, client in
                let deposit = #"{"id": "retained-1", "amounts": {"gold": 100}, "reason": "quest"}"#
                let sent = try await client.admin(.post, "/admin/v1/wallets/zoe/transactions", body: deposit)
                #expect(sent.status == .ok)
                try await WebhookDeliveryTests.eventually { backend.posts.count == 1 }
                try await WebhookDeliveryTests.eventually { try await server.store.webhookSummary().delivered == 1 }
                let event = try #require(backend.posts.first).id
                clock.withLock { $0 += 3 * 86_400 }
                if days > 0 {
                    // The job prunes within a few passes (every 0.1 s): the event's row keeps only `{}`.
                    try await WebhookDeliveryTests.eventually {
                        try await server.store.rowsMentioning("zoe").contains {
                            $0.table == "outbox" && $0.values["payload"] == .text("{}")
                        }
                    }
                } else {
                    try await Task.sleep(for: .milliseconds(600))  // several passes of a job that must not prune
                }
                let replay = try await client.admin(.post, "/admin/v1/webhooks/events/\(event)/replay")
                let body = String(buffer: replay.body)
                let code = (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["error"]
                answer.withLock { $0 = (replay.status, (code as? [String: Any])?["code"] as? String, body) }
                let wallet = try await client.admin(.get, "/admin/v1/wallets/zoe")
                #expect(String(buffer: wallet.body).contains(#""gold":100"#), "the balance is untouched")
                let integrity = try await server.store.integrity()
                #expect(integrity.findings.isEmpty && integrity.rows["outbox"] == 1, "the event's row stays")
            }
            let (status, code, body) = try #require(answer.withLock { $0 })
            return (status, code, body)
        }
    }

    static func configure(_ configuration: inout ServerConfiguration, days: Int, webhook: URL, secret: String) {
        configuration.retention.days = days
        configuration.retention.intervalSeconds = 0.1
        configuration.webhooks.endpoints = [.init(url: webhook.absoluteString, secrets: [secret])]
        configuration.webhooks.pollIntervalSeconds = 0.02
    }
}
