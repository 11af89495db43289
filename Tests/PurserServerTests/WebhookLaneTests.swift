import Foundation
import PurserCore
import PurserStorage
import Synchronization
import Testing

/// An endpoint's lane keeps `concurrency` posts in flight and claims more as they finish: one slow answer holds up
/// only its own event. (A lane that claimed a batch and waited for all of it held every event behind a stalled post
/// until the post timed out, and the outbox fell behind a receiver that was only sometimes slow.)
@Suite struct WebhookLaneTests {
    @Test func theEventsBehindAStalledPostAreDeliveredWhileItWaits() async throws {
        let first = Mutex(true)
        let released = Mutex(false)
        let backend = TestGameBackend { _ in
            first.withLock { isFirst in
                defer { isFirst = false }
                return isFirst ? .held(until: { released.withLock { $0 } }) : .ok
            }
        }
        let events = 40
        try await TestWebhookWorker.run(
            backend: backend, gifts: events, users: (1...events).map { UserID("player-\($0)") }, concurrency: 2,
            timeoutSeconds: 60, holder: "lane"
        ) { worker in
            let store = worker.store
            // The first post waits until released; the other events go out and are recorded meanwhile. (A lane that
            // waited for its whole batch posted 8 of them and no more.)
            try await WebhookDeliveryTests.eventually(.seconds(40)) {
                try await store.webhookSummary().delivered == events - 1
            }
            #expect(backend.posts.count == events, "every event posted once, the held one still in flight")
            #expect(try await store.webhookSummary().pending == 1, "only the held event waits")
            released.withLock { $0 = true }
            try await WebhookDeliveryTests.eventually { try await store.webhookSummary().delivered == events }
            #expect(backend.posts.count == events, "the held post answered within the time-out: no retry")
        }
    }
}
