import Foundation
import HTTPTypes
import PurserServer
import PurserStorage
import PurserWebhooks
import Testing

/// An endpoint with `ordered: true`, over real HTTP: one user's events reach the game backend in `sequence` order
/// even when the first of them fails, and other users' events are not held up meanwhile.
@Suite struct OrderedWebhookDeliveryTests {
    @Test func aFailingFirstEventHoldsBackOnlyItsUsersLaterEvents() async throws {
        let clock = WebhookDeliveryTests.TestClock()
        // Alice's first event is refused on its first post and waits an hour for its retry; the rest is taken at once.
        let backend = TestGameBackend(
            answering: { event, post in
                event.transaction?.userId == "alice" && event.transaction?.sequence == 1 && post == 1
                    ? .status(.serviceUnavailable) : .ok
            }, now: { clock.now() })
        try await backend.serving { url in
            try await TestServer.run(
                configure: {
                    WebhookDeliveryTests.configure(&$0, url: url, secret: backend.secret, retry: [3_600], timeout: 5)
                    $0.webhooks.endpoints[0].ordered = true
                }, now: { clock.now() }
            ) { server, client in
                _ = try await WebhookDeliveryTests.credit(
                    ["alice", "alice", "bob", "alice", "bob"], on: server, client: client)
                try await WebhookDeliveryTests.eventually { backend.balance("bob") == 120 }
                try await WebhookDeliveryTests.eventually {
                    try await server.store.webhookDeliveries(status: .failed, limit: 10).map(\.userId) == ["alice"]
                }
                try await Task.sleep(for: .milliseconds(300))  // fifteen polls of the worker
                #expect(Self.sequences(of: "alice", in: backend) == [1], "alice's events 2 and 3 wait for 1")
                #expect(Self.sequences(of: "bob", in: backend) == [1, 2], "bob's went on meanwhile")

                clock.advance(by: 7_200)  // past the retry, jitter included
                try await WebhookDeliveryTests.eventually { try await server.store.webhookSummary().delivered == 5 }
                #expect(Self.sequences(of: "alice", in: backend) == [1, 1, 2, 3])
                #expect(backend.balance("alice") == 180)
                #expect(try await server.store.webhookSummary().dead == 0)
            }
        }
    }

    /// The `sequence` of every post about `user`, in the order the backend received them.
    static func sequences(of user: String, in backend: TestGameBackend) -> [Int64] {
        backend.posts.compactMap(\.event.transaction).filter { $0.userId == user }.map(\.sequence)
    }
}
