import Foundation
import Logging
import PurserCore
import PurserServer
import PurserStorage
import PurserWebhooks
import ServiceLifecycle
import Testing

/// `serve` stopping (a graceful shutdown, as on SIGTERM) while its webhook worker holds claims: the post in flight
/// finishes, and the claims not posted yet are given back, so another replica posts them at once instead of after
/// the claims expire.
@Suite struct WebhookDrainTests {
    @Test func aStoppingWorkerGivesBackTheClaimsItHasNotPosted() async throws {
        let backend = TestGameBackend { _ in .slow(.milliseconds(500)) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-drain-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await SQLiteLedgerStore.open(
            path: directory.appendingPathComponent("purser.sqlite").path, logger: Logger(label: "test"))
        try await backend.serving { url in
            try await store.whileRunning {
                try await store.migrate()
                for index in 1...5 {
                    let request = WalletTransaction.Request(
                        id: "gift-\(index)", userID: "dana", amounts: ["gold": 10], reason: "gift", cause: "admin")
                    _ = try await store.applyWalletTransaction(request, now: Date())
                }
                var settings = ServerConfiguration.Webhooks()
                settings.endpoints = [.init(url: url.absoluteString, secrets: [backend.secret.serialized])]
                settings.concurrency = 1
                settings.timeoutSeconds = 5
                settings.pollIntervalSeconds = 0.02
                let endpoint = try WebhookEndpoint(settings.endpoints[0], index: 0)
                let worker = WebhookDeliveryService(
                    store: store, endpoints: [endpoint], settings: settings, jitter: WebhookJitter(seed: 1),
                    holder: "leaving", logger: Logger(label: "test"), now: { Date() })
                let group = ServiceGroup(
                    configuration: .init(services: [worker], gracefulShutdownSignals: [], logger: Logger(label: "test"))
                )
                async let running: Void = group.run()
                try await WebhookDeliveryTests.eventually { !backend.posts.isEmpty }
                await group.triggerGracefulShutdown()
                try await running

                #expect(backend.posts.count == 1, "no post started after the shutdown began")
                #expect(try await store.webhookSummary().delivered == 1, "the post in flight was answered and recorded")
                let next = try await store.claimWebhookDeliveries(
                    endpoint: endpoint.name, holder: "next", until: Date() + 60, limit: 10, now: Date())
                #expect(next.count == 4, "the unposted claims were given back")
                #expect(next.allSatisfy { $0.attempts == 0 }, "a claim given back is not an attempt")
            }
        }
    }
}
