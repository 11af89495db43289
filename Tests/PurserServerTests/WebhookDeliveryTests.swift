import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import PurserServer
import PurserStorage
import PurserWebhooks
import Synchronization
import Testing

/// Webhook delivery over real HTTP to a game backend that is down, fails, times out or answers slowly: every event
/// arrives, and de-duplicated by `webhook-id` each takes effect once.
@Suite struct WebhookDeliveryTests {
    /// The server's clock: real time plus an offset a test moves forward.
    final class TestClock: Sendable {
        private let offset = Mutex<TimeInterval>(0)
        func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }
        func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
    }

    /// `timeout`: 5 s by default, so a machine busy with the whole suite in parallel does not turn a quick answer
    /// into a time-out; a test that provokes one says how long it waits.
    static func configure(
        _ configuration: inout ServerConfiguration, url: URL, secret: WebhookSecret, retry: [Double]? = nil,
        timeout: Double = 5
    ) {
        configuration.webhooks.endpoints = [.init(url: url.absoluteString, secrets: [secret.serialized])]
        configuration.webhooks.retrySeconds = retry
        configuration.webhooks.timeoutSeconds = timeout
        configuration.webhooks.pollIntervalSeconds = 0.02
    }

    /// Credits `users` one purchase each over HTTP; the transaction ids.
    static func credit(_ users: [String], on server: TestServer, client: some TestClientProtocol) async throws
        -> [String]
    {
        var ids: [String] = []
        for user in users {
            let order = try await server.order("gold60", for: user, client: client)
            let (id, jws) = try await server.pay("gold60", token: order.appAccountToken)
            #expect(try await client.submit(jws, user: user).status == .ok)
            ids.append(id)
        }
        return ids
    }

    /// Waits (up to `limit`) until `condition` holds.
    static func eventually(_ limit: Duration = .seconds(20), _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + limit
        while try await !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out waiting")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test func aReceiverDownForAnHourGetsEveryEventOnceItIsBack() async throws {
        let clock = TestClock()
        let backend = TestGameBackend(now: { clock.now() })  // the server's and the backend's clocks agree
        let reserved = try ReservedPort()  // refused until the backend starts on it
        let port = reserved.port
        let url = URL(string: "http://127.0.0.1:\(port)/hooks")!
        let now: @Sendable () -> Date = { clock.now() }
        // Refused connections fail at once; once the backend is back each post must succeed, so no 0.5 s time-out
        // (a time-out would schedule the next try minutes of this test's clock away).
        let configure: (inout ServerConfiguration) -> Void = {
            Self.configure(&$0, url: url, secret: backend.secret, timeout: 5)
        }
        try await TestServer.run(configure: configure, now: now) { server, client in
            let ids = try await Self.credit(["alice", "bob", "carol"], on: server, client: client)
            _ = try await server.store.revoke(
                transactionID: ids[1], revocationDate: clock.now(), cause: "refund", now: clock.now())
            try await Self.eventually {
                try await server.store.webhookDeliveries(status: .failed, limit: 10).count == 4
            }
            let failed = try await server.store.webhookDeliveries(status: .failed, limit: 10)
            #expect(failed.allSatisfy { $0.lastResult?.hasPrefix("unreachable") == true })
            // The receiver is back first, then an hour passes: an attempt made between the two (on a loaded
            // machine the worker polls every 20 ms) must find it listening, or its next retry is an hour away. The
            // hour passes a minute at a time: a post signed before one jump of the whole hour and verified after it
            // would be an hour old, past the receiver's five minutes of tolerance, and refused (a CI run under load
            // met exactly that).
            reserved.release()
            try await backend.serving(port: port) { _ in
                for _ in 0..<60 {
                    clock.advance(by: 60)
                    try await Task.sleep(for: .milliseconds(20))
                }
                try await Self.eventually { try await server.store.webhookSummary().delivered == 4 }
            }
            #expect(backend.appliedIDs.count == 4)
            #expect(backend.balance("alice") == 60)
            #expect(backend.balance("bob") == 0, "credited, then revoked")
            #expect(backend.balance("carol") == 60)
            #expect(backend.refused == 0)
        }
    }

    @Test func a500AndATimeOutAreRetriedAndTheDuplicateIgnored() async throws {
        // Each event: first a 500, then applied but answered after the sender's 2 s time-out, then a 204. The
        // time-out leaves a loaded machine 2 s for the quick answers (0.5 s let a 204 time out in a busy run).
        let backend = TestGameBackend { post in
            switch post {
            case 1: .status(.internalServerError)
            case 2: .slow(.milliseconds(3_000))
            default: .ok
            }
        }
        try await backend.serving { url in
            try await TestServer.run(configure: {
                Self.configure(&$0, url: url, secret: backend.secret, retry: [0.05, 0.05, 0.05], timeout: 2)
            }) { server, client in
                _ = try await Self.credit(["dave", "erin"], on: server, client: client)
                try await Self.eventually { try await server.store.webhookSummary().delivered == 2 }
                let delivered = try await server.store.webhookDeliveries(status: .delivered, limit: 10)
                #expect(delivered.map(\.attempts) == [3, 3])
                #expect(backend.posts.count == 6)
                #expect(backend.appliedIDs.count == 2, "the retry after the time-out was a duplicate")
                #expect(backend.balance("dave") == 60)
                #expect(backend.balance("erin") == 60)
                #expect(try await server.store.webhookSummary().retries == 4)
            }
        }
    }

    @Test func aSlowAnswerWithinTheTimeOutIsOneDelivery() async throws {
        let backend = TestGameBackend { _ in .slow(.milliseconds(200)) }
        try await backend.serving { url in
            try await TestServer.run(configure: { Self.configure(&$0, url: url, secret: backend.secret, timeout: 5) }) {
                server, client in
                _ = try await Self.credit(["frank"], on: server, client: client)
                try await Self.eventually { try await server.store.webhookSummary().delivered == 1 }
                #expect(backend.posts.count == 1)
                let event = try #require(backend.posts.first?.event)
                #expect(event.type == .transactionCredited)
                #expect(event.transaction?.userId == "frank")
                #expect(event.transaction?.cause == .client)
                #expect(event.transaction?.sequence == 1)
            }
        }
    }

    @Test func aDeadLetterIsListedAndAReplayIsAuditedWithTheOperator() async throws {
        let healthy = Mutex(false)
        let backend = TestGameBackend { _ in healthy.withLock { $0 } ? .ok : .status(.badGateway) }
        try await backend.serving { url in
            try await TestServer.run(configure: {
                Self.configure(&$0, url: url, secret: backend.secret, retry: [0.02, 0.02], timeout: 5)
            }) { server, client in
                _ = try await Self.credit(["grace"], on: server, client: client)
                try await Self.eventually { try await server.store.webhookSummary().dead == 1 }
                let listed = try await client.admin(.get, "/admin/v1/webhooks/events?status=dead")
                #expect(listed.status == .ok)
                let dead = try #require(try listed.decode([String: [WebhookDelivery]].self)["events"]?.first)
                #expect(dead.attempts == 3)
                #expect(dead.lastResult == "HTTP 502")
                healthy.withLock { $0 = true }
                let replay = try await client.admin(.post, "/admin/v1/webhooks/events/\(dead.id)/replay")
                #expect(replay.status == .ok)
                try await Self.eventually { try await server.store.webhookSummary().delivered == 1 }
                #expect(backend.appliedIDs == [dead.id])
                let audit = try await server.store.auditTrail(of: dead.id)
                #expect(audit.map(\.event) == ["replayed"])
                #expect(audit.first?.cause == "support by sam")

                let unknown = try await client.admin(.post, "/admin/v1/webhooks/events/evt_nothing/replay")
                #expect(unknown.status == .notFound)
                let malformed = try await client.admin(.post, "/admin/v1/webhooks/events/not-an-id/replay")
                #expect(malformed.errorCode == "invalid_event_id")
                let badStatus = try await client.admin(.get, "/admin/v1/webhooks/events?status=lost")
                #expect(badStatus.errorCode == "invalid_status")
                let badLimit = try await client.admin(.get, "/admin/v1/webhooks/events?limit=0")
                #expect(badLimit.errorCode == "invalid_limit")
            }
        }
    }

    @Test func aTestEventIsSignedAndReportedPerEndpoint() async throws {
        let backend = TestGameBackend()
        try await backend.serving { url in
            try await TestServer.run(configure: { Self.configure(&$0, url: url, secret: backend.secret, timeout: 5) }) {
                _, client in
                let response = try await client.admin(.post, "/admin/v1/webhooks/endpoints/test")
                #expect(response.status == .ok)
                let results = try #require(try response.decode([String: [WebhookService.TestResult]].self)["results"])
                #expect(results.map(\.delivered) == [true])
                #expect(results.first?.status == 204)
                #expect(backend.posts.map(\.event.type) == [.test])
                #expect(backend.appliedIDs.isEmpty == false)
            }
        }
        try await TestServer.run { _, client in
            let unconfigured = try await client.admin(.post, "/admin/v1/webhooks/endpoints/test")
            #expect(unconfigured.status == .conflict, "not a 503: no retry configures an endpoint")
            #expect(unconfigured.errorCode == "webhooks_not_configured")
            let replay = try await client.admin(.post, "/admin/v1/webhooks/events/evt_x_credited/replay")
            #expect(replay.status == .conflict && replay.errorCode == "webhooks_not_configured")
        }
    }
}
