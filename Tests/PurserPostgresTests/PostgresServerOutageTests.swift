import AppStoreSimulator
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PostgresNIO
import PurserCore
import PurserServer
import PurserStorage
import Testing

/// The whole server on PostgreSQL, over live HTTP: while its database is gone it answers 503 `storage_unavailable`
/// with `Retry-After` (not a decision: the client keeps its transaction), and it serves again by itself once the
/// database is back, without a restart.
@Suite(.enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.howToRun))
struct PostgresServerOutageTests {
    @Test func theServerAnswers503WhileItsDatabaseIsGoneAndServesAgainAfter() async throws {
        try await PostgresTestDatabase.withFreshDatabase(connectionWaitTimeout: .seconds(2)) { configuration, name in
            let (assembly, _) = try await PostgresTestDatabase.server(on: configuration)
            try await assembly.application().test(.live) { client in
                let order: HTTPFields = [.contentType: "application/json", HTTPField.Name("X-Purser-User")!: "alice"]
                let body = ByteBuffer(string: #"{"productId": "gold60"}"#)
                let before = try await client.execute(uri: "/v1/orders", method: .post, headers: order, body: body)
                #expect(before.status == .created)
                #expect(try await client.execute(uri: "/ready", method: .get).status == .ok)

                try await PostgresTestDatabase.withAdmin { admin in
                    try await admin.perform("ALTER DATABASE \(unescaped: name) ALLOW_CONNECTIONS false")
                    try await admin.perform(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = \(name)")
                }
                let during = try await client.execute(uri: "/v1/orders", method: .post, headers: order, body: body)
                #expect(during.status == .serviceUnavailable)
                #expect(String(buffer: during.body).contains("storage_unavailable"))
                #expect(during.headers[.retryAfter] != nil)
                // Not ready without its ledger (a load balancer sends the traffic elsewhere), yet alive.
                let unready = try await client.execute(uri: "/ready", method: .get)
                #expect(
                    unready.status == .serviceUnavailable
                        && String(buffer: unready.body).contains("storage_unavailable"))
                #expect(try await client.execute(uri: "/health", method: .get).status == .ok)

                try await PostgresTestDatabase.withAdmin { admin in
                    try await admin.perform("ALTER DATABASE \(unescaped: name) ALLOW_CONNECTIONS true")
                }
                // The pool reconnects by itself, after its backoff.
                var after: HTTPResponse.Status = .serviceUnavailable
                let clock = ContinuousClock()
                let back = clock.now
                while after == .serviceUnavailable, clock.now - back < .seconds(120) {
                    after = try await client.execute(uri: "/v1/orders", method: .post, headers: order, body: body)
                        .status
                    if after == .serviceUnavailable { try await Task.sleep(for: .milliseconds(250)) }
                }
                #expect(after == .created)
                #expect(try await client.execute(uri: "/ready", method: .get).status == .ok)
            }
        }
    }
}
