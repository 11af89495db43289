import Foundation
import PurserCore
import PurserStorage
import Testing

/// Leases on units of background work: one holder at a time, renewed by its holder, taken over once expired, freed
/// by release. Each check uses its own lease names.
extension LedgerStoreConformance {
    /// Whoever asks, at most one holder holds a lease until it expires; many asking at once, exactly one gets it.
    public func neverGrantsOneLeaseToTwoHolders() async throws {
        let until = now.addingTimeInterval(30)
        #expect(try await store.acquireLease("reconcile", holder: "replica-a", until: until, now: now))
        #expect(
            try await !store.acquireLease(
                "reconcile", holder: "replica-b", until: until, now: now.addingTimeInterval(10)),
            "replica-a holds it until \(until)")
        let holders = (0..<20).map { "racer-\($0)" }
        let winners = try await withThrowingTaskGroup(of: String?.self) { group in
            for holder in holders {
                group.addTask {
                    try await store.acquireLease("replay", holder: holder, until: until, now: now) ? holder : nil
                }
            }
            return try await group.reduce(into: [String]()) { if let holder = $1 { $0.append(holder) } }
        }
        #expect(winners.count == 1, "holders of one lease at once: \(winners)")
    }

    /// A holder asking again renews its lease: the new term holds off others past the old one.
    public func renewsALeaseForItsHolder() async throws {
        #expect(
            try await store.acquireLease(
                "renewed", holder: "replica-a", until: now.addingTimeInterval(30), now: now))
        #expect(
            try await store.acquireLease(
                "renewed", holder: "replica-a", until: now.addingTimeInterval(90), now: now.addingTimeInterval(20)))
        #expect(
            try await !store.acquireLease(
                "renewed", holder: "replica-b", until: now.addingTimeInterval(120), now: now.addingTimeInterval(60)),
            "the renewal holds the lease until +90 s")
    }

    /// Once a lease expires (a killed replica stops renewing) another holder takes it, and the old holder has lost it.
    public func letsAnotherHolderTakeAnExpiredLease() async throws {
        let until = now.addingTimeInterval(30)
        #expect(try await store.acquireLease("expiring", holder: "replica-a", until: until, now: now))
        #expect(
            try await store.acquireLease(
                "expiring", holder: "replica-b", until: until.addingTimeInterval(30), now: until))
        #expect(
            try await !store.acquireLease(
                "expiring", holder: "replica-a", until: until.addingTimeInterval(60), now: until.addingTimeInterval(1)),
            "replica-b took the lease over")
    }

    /// Release frees the holder's lease at once; a release by anyone else changes nothing.
    public func freesAReleasedLease() async throws {
        let until = now.addingTimeInterval(30)
        #expect(try await store.acquireLease("released", holder: "replica-a", until: until, now: now))
        try await store.releaseLease("released", holder: "replica-b")
        #expect(
            try await !store.acquireLease("released", holder: "replica-b", until: until, now: now),
            "a release by another holder frees nothing")
        try await store.releaseLease("released", holder: "replica-a")
        #expect(try await store.acquireLease("released", holder: "replica-b", until: until, now: now))
    }
}
