import Foundation
import Logging
import PurserCore
import PurserServer
import PurserStorage
import PurserWebhooks
import ServiceLifecycle
import Synchronization
import Testing

/// An endpoint's lane keeps `concurrency` posts in flight and claims more as they finish: one slow answer holds up
/// only its own event. (A lane that claimed a batch and waited for all of it held every event behind a stalled post
/// until the post timed out, and the outbox fell behind a receiver that was only sometimes slow.)
@Suite struct WebhookLaneTests {
    @Test func theEventsBehindAStalledPostAreDeliveredWhileItWaits() async throws {
        let first = Mutex(true)
        let backend = TestGameBackend { _ in
            first.withLock { isFirst in
                defer { isFirst = false }
                return isFirst ? .slow(.seconds(8)) : .ok
            }
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-lane-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await SQLiteLedgerStore.open(
            path: directory.appendingPathComponent("purser.sqlite").path, logger: Logger(label: "test"))
        try await backend.serving { url in
            try await store.whileRunning {
                try await store.migrate()
                let events = 40
                for index in 1...events {
                    let request = WalletTransaction.Request(
                        id: "gift-\(index)", userID: UserID("player-\(index)"), amounts: ["gold": 10], reason: "gift",
                        cause: "admin")
                    _ = try await store.applyWalletTransaction(request, now: Date())
                }
                var settings = ServerConfiguration.Webhooks()
                settings.endpoints = [.init(url: url.absoluteString, secrets: [backend.secret.serialized])]
                settings.concurrency = 2
                settings.timeoutSeconds = 30
                settings.pollIntervalSeconds = 0.02
                let endpoint = try WebhookEndpoint(settings.endpoints[0], index: 0)
                let worker = WebhookDeliveryService(
                    store: store, endpoints: [endpoint], settings: settings, jitter: WebhookJitter(seed: 1),
                    holder: "lane", logger: Logger(label: "test"), now: { Date() })
                let group = ServiceGroup(
                    configuration: .init(services: [worker], gracefulShutdownSignals: [], logger: Logger(label: "test"))
                )
                async let running: Void = group.run()
                // Within the stalled post's 8 s: the other events went out and were recorded meanwhile.
                try await WebhookDeliveryTests.eventually(.seconds(6)) {
                    try await store.webhookSummary().delivered == events - 1
                }
                #expect(backend.posts.count == events, "every event posted once, the stalled one still in flight")
                #expect(try await store.webhookSummary().pending == 1, "only the stalled event waits")
                try await WebhookDeliveryTests.eventually { try await store.webhookSummary().delivered == events }
                #expect(backend.posts.count == events, "the stalled post answered within the time-out: no retry")
                await group.triggerGracefulShutdown()
                try await running
            }
        }
    }
}
