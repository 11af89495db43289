import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PurserChaos
import PurserWebhooks
import ServiceLifecycle
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `purser serve` killed with SIGKILL while a webhook post is in flight, and started again on the same ledger: the
/// claimed delivery is taken over once its claim expires, every event arrives, and each takes effect once.
@Suite struct WebhookKillTests {
    let serve = ServeCommandTests()

    /// A game backend whose first post is held (the server dies meanwhile), verifying and de-duplicating the rest.
    final class Backend: Sendable {
        let verifier: WebhookVerifier
        private let state = Mutex((posts: [String](), applied: Set<String>()))
        init(secret: WebhookSecret) { verifier = WebhookVerifier(secrets: [secret]) }
        var posts: [String] { state.withLock { $0.posts } }
        var applied: Set<String> { state.withLock { $0.applied } }

        func application(onServerRunning: @escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol {
            let router = Router()
            router.post("hooks") { request, _ -> HTTPResponse.Status in
                let body = try await request.body.collect(upTo: 1 << 20)
                let verified = try self.verifier.verify(
                    body: body.readableBytesView,
                    header: { name in HTTPField.Name(name).flatMap { request.headers[$0] } })
                let first = self.state.withLock { state in
                    state.posts.append(verified.id)
                    return state.posts.count == 1
                }
                if first { try? await Task.sleep(for: .seconds(4)) }  // the sender is killed while it waits
                self.state.withLock { _ = $0.applied.insert(verified.id) }
                return .noContent
            }
            return Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { await onServerRunning($0.localAddress?.port ?? 0) })
        }
    }

    func launch(config: URL, secret: String) async throws -> (ChildProcess, Int) {
        try await serve.launch(
            ["serve", "--config", config.path], environment: ["PURSER_WEBHOOKS_ENDPOINTS_0_SECRET": secret])
    }

    @Test func aKilledServersClaimedDeliveryIsTakenOverAfterARestart() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try #"{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}"#
            .write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
        let secret = WebhookSecret.generate()
        let backend = Backend(secret: secret)
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let group = ServiceGroup(
            configuration: .init(
                services: [backend.application { listening.yield($0) }], logger: Logger(label: "test")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            let backendPort = try #require(await iterator.next())
            let config = directory.appendingPathComponent("purser.json")
            try """
            {"port": 0, "dataDirectory": "data", "catalogFile": "catalog.json", "appStore": "simulator",
             "bundleId": "com.example.purser.demo", "auth": {"mode": "development"},
             "reconciliation": {"intervalSeconds": 0},
             "webhooks": {"endpoints": [{"url": "http://127.0.0.1:\(backendPort)/hooks"}], "timeoutSeconds": 3,
                          "claimSeconds": 1, "pollIntervalSeconds": 0.05, "retrySeconds": [0.1, 0.2, 0.5, 1, 2]}}
            """.write(to: config, atomically: true, encoding: .utf8)

            // A 3 s time-out and five retries: on a loaded machine a 1 s time-out dead-lettered an event the backend
            // had applied (CI: 2 of 3 delivered in the ledger, 3 of 3 applied).
            var (server, port) = try await launch(config: config, secret: secret.serialized)
            for user in ["alice", "bob", "carol"] {
                let base = "http://127.0.0.1:\(port)"
                let (jws, _) = try await serve.buyGold60(as: user, at: base, simulator: base)
                let (status, _) = try await serve.request(
                    "POST", "\(base)/v1/transactions", user: user, json: #"{"signedTransaction": "\#(jws)"}"#)
                #expect(status == 200)
            }
            for _ in 0..<200 where backend.posts.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
            let held = try #require(backend.posts.first, "a post is in flight")
            server.send(SIGKILL)
            await server.waitUntilExit()
            #expect(server.terminationStatus == 128 + SIGKILL)

            (server, port) = try await launch(config: config, secret: secret.serialized)
            defer { server.terminate() }
            for _ in 0..<1_000 where backend.applied.count < 3 || backend.posts.filter({ $0 == held }).count < 2 {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(backend.applied.count == 3, "every event arrived: \(backend.posts)")
            #expect(backend.posts.filter { $0 == held }.count >= 2, "the held event was posted again after the kill")
            // The ledger agrees, as `purser webhooks list` shows it.
            var delivered: [[String: Any]] = []
            for _ in 0..<100 {
                let run = try await PurserProcess.run(
                    ["webhooks", "list", "--config", config.path, "--port", String(port), "--json"],
                    environment: ["PURSER_WEBHOOKS_ENDPOINTS_0_SECRET": secret.serialized])
                #expect(run.status == 0, "\(run.stderr)")
                let object = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
                delivered = ((object?["events"] as? [[String: Any]]) ?? []).filter {
                    $0["status"] as? String == "delivered"
                }
                if delivered.count == 3 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(delivered.count == 3, "the ledger shows every event delivered")
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}
