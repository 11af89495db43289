import Foundation
import PurserStorage
import Testing

/// The app a ledger belongs to: none recorded before its first start, the one recorded after, and a deliberate
/// re-label replaces it (what `serve` checks at each start and `purser restore --as-app` rewrites).
extension LedgerStoreConformance {
    public func recordsTheAppItBelongsTo() async throws {
        #expect(try await store.recordedApp() == nil, "a fresh ledger records no app")
        try await store.recordApp("com.example.dragons", now: now)
        #expect(try await store.recordedApp() == "com.example.dragons")
        try await store.recordApp("com.example.racers", now: now + 1)
        #expect(try await store.recordedApp() == "com.example.racers", "a re-label replaces the app")
    }
}
