import Foundation
import PurserServer
import PurserStorage
import Testing

/// Leases on PostgreSQL when `serve` shuts down: a run cancelled by the graceful shutdown releases its lease on the way
/// out, although every query of a cancelled task is cancelled too, so another replica takes the work over at once.
@Suite(.enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.howToRun))
struct PostgresLeaseReleaseTests {
    @Test func aCancelledRunReleasesItsLeaseAtOnce() async throws {
        try await PostgresTestDatabase.withFreshDatabase { configuration, _ in
            try await PostgresTestDatabase.withStores(1, configuration) { stores in
                let store = stores[0]
                try await store.migrate()
                let now = Date()
                let leaving = LeasedWork("job", holder: "leaving", term: .seconds(60), store: store, now: { now })
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
                    try await store.acquireLease("job", holder: "next", until: now + 60, now: now),
                    "the cancelled holder left its lease to expire")
            }
        }
    }
}
