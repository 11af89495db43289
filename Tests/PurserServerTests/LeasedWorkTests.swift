import Foundation
import Logging
import PurserServer
import PurserStorage
import Synchronization
import Testing

/// Background work runs on one replica at a time, is taken over when its holder dies, and stops when its lease is
/// lost. Two `LeasedWork` values on one ledger stand for two replicas.
@Suite struct LeasedWorkTests {
    final class TestClock: Sendable {
        private let date = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var now: Date { date.withLock { $0 } }
        func advance(by seconds: TimeInterval) { date.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    static func withLedger(_ body: @Sendable (any LedgerStore) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-lease-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await SQLiteLedgerStore.open(
            path: directory.appendingPathComponent("purser.sqlite").path, logger: Logger(label: "test"))
        try await store.whileRunning {
            try await store.migrate()
            try await body(store)
        }
    }

    @Test func oneHolderAtATimeAndTheNextOneOnceItIsDone() async throws {
        try await Self.withLedger { (store: any LedgerStore) async throws in
            let clock = TestClock()
            let first = LeasedWork("job", holder: "replica-1", term: .seconds(60), store: store, now: { clock.now })
            let second = LeasedWork("job", holder: "replica-2", term: .seconds(60), store: store, now: { clock.now })
            let (started, startedSink) = AsyncStream.makeStream(of: Void.self)
            let (finish, finishSink) = AsyncStream.makeStream(of: Void.self)
            async let firstRun = first.runIfFree {
                startedSink.yield()
                for await _ in finish {}
                return "first"
            }
            for await _ in started { break }
            #expect(try await second.runIfFree { "second" } == nil, "the second replica ran while the first held it")
            finishSink.finish()
            #expect(try await firstRun == "first")
            #expect(try await second.runIfFree { "second" } == "second", "the lease was not released")
        }
    }

    /// A run cancelled (as `serve`'s graceful shutdown cancels it) releases its lease on the way out: another replica
    /// takes the work over at once, not once the lease expires.
    @Test func aCancelledRunReleasesItsLeaseAtOnce() async throws {
        try await Self.withLedger { (store: any LedgerStore) async throws in
            let clock = TestClock()
            let leaving = LeasedWork("job", holder: "leaving", term: .seconds(60), store: store, now: { clock.now })
            let (started, startedSink) = AsyncStream.makeStream(of: Void.self)
            let run = Task {
                try await leaving.runIfFree {
                    startedSink.yield()
                    try await Task.sleep(for: .seconds(30))
                }
            }
            for await _ in started { break }
            run.cancel()
            _ = try? await run.value
            #expect(
                try await store.acquireLease("job", holder: "next", until: clock.now + 60, now: clock.now),
                "the cancelled holder left its lease to expire")
        }
    }

    @Test func aDeadHoldersWorkIsTakenOverOnceItsLeaseExpires() async throws {
        try await Self.withLedger { (store: any LedgerStore) async throws in
            let clock = TestClock()
            // A replica took the lease and was killed: nobody renews or releases it.
            #expect(try await store.acquireLease("job", holder: "killed", until: clock.now + 60, now: clock.now))
            let survivor = LeasedWork("job", holder: "replica-2", term: .seconds(60), store: store, now: { clock.now })
            #expect(try await survivor.runIfFree { true } == nil)
            clock.advance(by: 61)
            #expect(try await survivor.runIfFree { true } == true)
        }
    }

    @Test func workWhoseLeaseIsLostIsCancelled() async throws {
        try await Self.withLedger { (store: any LedgerStore) async throws in
            let clock = TestClock()
            let slow = LeasedWork("job", holder: "slow", term: .milliseconds(300), store: store, now: { clock.now })
            let outcome = Mutex<String>("running")
            let run = Task {
                try await slow.runIfFree {
                    do {
                        try await Task.sleep(for: .seconds(30))
                        outcome.withLock { $0 = "finished" }
                    } catch {
                        outcome.withLock { $0 = "cancelled" }
                        throw error
                    }
                }
            }
            try await Task.sleep(for: .milliseconds(50))
            // Its clock jumps past the term before it renews, and another holder takes the expired lease.
            clock.advance(by: 10)
            #expect(try await store.acquireLease("job", holder: "other", until: clock.now + 60, now: clock.now))
            await #expect(throws: CancellationError.self) { try await run.value }
            #expect(outcome.withLock { $0 } == "cancelled")
        }
    }
}
