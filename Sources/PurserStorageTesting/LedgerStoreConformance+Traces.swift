import Foundation
import PurserCore
import PurserStorage
import Testing

/// Trace links: a transaction keeps the trace of the request that first settled it.
extension LedgerStoreConformance {
    /// The first link of a transaction stays; another transaction's is its own; an unlinked one has none.
    public func keepsTheFirstTraceOfATransaction() async throws {
        let first = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        let later = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
        #expect(try await store.trace(ofTransaction: "traced-1") == nil)
        try await store.recordTrace(first, ofTransaction: "traced-1", now: now)
        try await store.recordTrace(later, ofTransaction: "traced-1", now: now.addingTimeInterval(5))
        try await store.recordTrace(later, ofTransaction: "traced-2", now: now)
        #expect(try await store.trace(ofTransaction: "traced-1") == first, "a later settlement replaced the link")
        #expect(try await store.trace(ofTransaction: "traced-2") == later)
        #expect(try await store.trace(ofTransaction: "traced-3") == nil)
    }
}
