import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PurserCore
import PurserStorage
import PurserWebhooks
import Testing

@testable import PurserServer

/// A studio's one game backend, receiving every app's webhooks at the endpoint the apps inherit, applies each
/// `webhook-id` once: so no two events may share an id, and each body names its app. Before ids were drawn at random,
/// the first wallet event of each app was `evt_wallet_1` in both, and the receiver dropped the second app's.
@Suite struct WebhookIdentityTests {
    /// A deposit in each app of a studio reaches the one receiver as two events with two random ids, each naming the
    /// app whose ledger wrote it; the receiver applies both.
    @Test func twoAppsFirstEventsHaveTheirOwnIdsAndNameTheirApps() async throws {
        let backend = TestGameBackend()
        try await backend.serving { url in
            try await ConsoleStudioTests.run(configure: { configuration in
                configuration.webhooks.endpoints = [
                    .init(url: url.absoluteString, secrets: [backend.secret.serialized])
                ]
                configuration.webhooks.pollIntervalSeconds = 0.02
            }) { _, client in
                for app in [ConsoleStudioTests.home, ConsoleStudioTests.racers] {
                    var headers: HTTPFields = [
                        .authorization: "Bearer \(TestServer.adminToken)", .contentType: "application/json",
                    ]
                    headers[AppDispatchMiddleware.header] = app
                    let response = try await client.execute(
                        uri: "/admin/v1/wallets/kim/transactions", method: .post, headers: headers,
                        body: ByteBuffer(string: #"{"id": "gift-1", "amounts": {"gold": 5}, "reason": "welcome"}"#))
                    #expect(response.status == .ok, "\(String(buffer: response.body))")
                }
                let deadline = ContinuousClock.now + .seconds(10)
                while backend.posts.count < 2, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                let posts = backend.posts
                #expect(posts.count == 2)
                #expect(Set(posts.map(\.id)).count == 2, "one id for two events: \(posts.map(\.id))")
                #expect(posts.allSatisfy { $0.id.wholeMatch(of: /evt_[0-9a-f]{32}/) != nil }, "\(posts.map(\.id))")
                #expect(
                    Set(posts.compactMap(\.event.bundleId)) == [ConsoleStudioTests.home, ConsoleStudioTests.racers])
                #expect(backend.appliedIDs.count == 2, "the receiver applied both")
            }
        }
    }
}
