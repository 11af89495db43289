import Foundation
import PurserCore
import PurserStorage
import Testing

/// Trace links: a transaction keeps the trace of its first traced settlement, written with the settlement.
extension LedgerStoreConformance {
    /// The first traced settlement's link stays (a repeat does not replace it); an untraced settlement links nothing,
    /// and a refused transaction the ledger keeps is linked as any other.
    public func keepsTheFirstTraceOfATransaction() async throws {
        let first = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        let later = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
        let order = try await newOrder("tracy")
        var submission = Submission(
            transaction: transaction("traced-1", token: order.id), assessment: .creditable(gold),
            source: .client("tracy"))
        #expect(try await store.settle(submission, now: now).decision == .delivered)
        #expect(try await store.trace(ofTransaction: "traced-1") == nil, "an untraced settlement linked a trace")
        submission.traceParent = first
        #expect(try await store.settle(submission, now: now).decision == .alreadyDelivered)
        submission.traceParent = later
        _ = try await store.settle(submission, now: now.addingTimeInterval(5))
        #expect(try await store.trace(ofTransaction: "traced-1") == first, "a later settlement replaced the link")
        var refused = Submission(
            transaction: transaction("traced-2", token: nil), assessment: .rejected(.unknownProduct("x")),
            source: .client("tracy"))
        refused.traceParent = later
        _ = try await store.settle(refused, now: now)
        #expect(try await store.trace(ofTransaction: "traced-2") == later)
        #expect(try await store.trace(ofTransaction: "traced-3") == nil)
    }
}
