import Foundation
import PurserCore
import PurserServer
import PurserStorage
import Testing

/// `serve` stopping (a graceful shutdown, as on SIGTERM) while its webhook worker holds claims: the post in flight
/// finishes, and the claims not posted yet are given back, so another replica posts them at once instead of after
/// the claims expire.
@Suite struct WebhookDrainTests {
    @Test func aStoppingWorkerGivesBackTheClaimsItHasNotPosted() async throws {
        let backend = TestGameBackend { _ in .slow(.milliseconds(500)) }
        try await TestWebhookWorker.run(
            backend: backend, gifts: 5, users: ["dana"], concurrency: 1, timeoutSeconds: 5, holder: "leaving"
        ) { worker in
            let store = worker.store
            try await WebhookDeliveryTests.eventually { !backend.posts.isEmpty }
            try await worker.stop()

            #expect(backend.posts.count == 1, "no post started after the shutdown began")
            #expect(try await store.webhookSummary().delivered == 1, "the post in flight was answered and recorded")
            let next = try await store.claimWebhookDeliveries(
                endpoint: worker.endpoint.name, holder: "next", until: Date() + 60, limit: 10, now: Date())
            #expect(next.count == 4, "the unposted claims were given back")
            #expect(next.allSatisfy { $0.attempts == 0 }, "a claim given back is not an attempt")
        }
    }
}
