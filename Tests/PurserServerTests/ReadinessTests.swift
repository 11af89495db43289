import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import NIOCore
import PurserServer
import PurserStorage
import ServiceLifecycle
import Synchronization
import Testing

/// `GET /ready`, for load balancers: ready while the ledger answers, and 503 `draining` once a graceful shutdown
/// began. (503 `storage_unavailable` without a ledger: `PostgresServerOutageTests`, with the database gone.)
@Suite struct ReadinessTests {
    @Test func readyWhileTheLedgerAnswers() async throws {
        try await TestServer.run { _, client in
            let ready = try await client.execute(uri: "/ready", method: .get)
            #expect(ready.status == .ok && String(buffer: ready.body) == #"{"status":"ready"}"#)
            #expect(try await client.execute(uri: "/ready", method: .head).status == .ok)
        }
    }

    /// What `/ready` answers inside a service group that is shutting down gracefully, as `serve` does on SIGTERM.
    @Test func drainingOnceTheGracefulShutdownBegins() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-ready-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await SQLiteLedgerStore.open(
            path: directory.appendingPathComponent("purser.sqlite").path, logger: Logger(label: "test"))
        try await store.whileRunning {
            try await store.migrate()
            let probe = ReadinessProbe(store: store)
            try await probe.check()
            let service = ProbeAfterShutdown(probe: probe)
            let group = ServiceGroup(
                configuration: .init(services: [service], gracefulShutdownSignals: [], logger: Logger(label: "test")))
            async let running: Void = group.run()
            try await Task.sleep(for: .milliseconds(50))
            await group.triggerGracefulShutdown()
            try await running
            let error = try #require(service.answer.withLock { $0 } as? ServiceError)
            #expect(error.code == .draining)
        }
    }

    /// Waits for the graceful shutdown, then asks the probe and keeps what it threw.
    final class ProbeAfterShutdown: Service, Sendable {
        let probe: ReadinessProbe
        let answer = Mutex<(any Error)?>(nil)
        init(probe: ReadinessProbe) { self.probe = probe }

        func run() async throws {
            try? await gracefulShutdown()
            do {
                try await probe.check()
            } catch {
                answer.withLock { $0 = error }
            }
        }
    }
}
