import Synchronization
import Testing

@testable import PurserServer

/// The gate that keeps `serve`'s workers from touching the ledger before its migrations ran.
@Suite struct LedgerReadinessTests {
    @Test func aWorkerWaitsUntilTheLedgerIsMigrated() async throws {
        let readiness = LedgerReadiness()
        let passed = Mutex(false)
        let worker = Task {
            try await readiness.wait()
            passed.withLock { $0 = true }
        }
        try await Task.sleep(for: .milliseconds(200))
        #expect(!passed.withLock { $0 }, "the worker went on before the ledger was migrated")
        readiness.open()
        try await worker.value
        #expect(passed.withLock { $0 })
        try await readiness.wait()  // once open, nobody waits
    }

    @Test func aWaitingWorkerEndsWhenCancelled() async throws {
        let readiness = LedgerReadiness()
        let worker = Task { try await readiness.wait() }
        try await Task.sleep(for: .milliseconds(50))
        worker.cancel()
        await #expect(throws: CancellationError.self) { try await worker.value }
    }
}
