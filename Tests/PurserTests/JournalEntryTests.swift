import Foundation
import Purser
import PurserCore
import Testing

/// The journal's state machine, without I/O.
@Suite("Journal entry transitions")
struct JournalEntryTests {
    let start = Date(timeIntervalSince1970: 1_700_000_000)

    func entry() -> JournalEntry {
        JournalEntry(id: OrderID.random(), userID: "alice", productID: "gold60", quantity: 1, createdAt: start)
    }

    @Test("the happy path: created → paying → paid → decided → finished")
    func happyPath() throws {
        var e = entry()
        e = try e.applying(.paymentAdded, at: start)
        #expect(e.state == .paying)
        e = try e.applying(.purchased(transactionID: "1"), at: start)
        #expect(e.state == .paid && e.transactionID == "1")
        e = try e.applying(.submissionFailed("network"), at: start)
        #expect(e.state == .paid && e.attempts == 1 && e.lastError == "network")
        e = try e.applying(.serverPending("unbound"), at: start)
        #expect(e.state == .pending && e.attempts == 2)
        e = try e.applying(.decided("delivered"), at: start.addingTimeInterval(5))
        #expect(e.state == .decided && e.decision == "delivered" && e.lastError == nil)
        #expect(e.updatedAt == start.addingTimeInterval(5))
        e = try e.applying(.finished, at: start)
        #expect(e.state == .finished && e.state.isClosed)
    }

    @Test("a transaction id never changes once known")
    func transactionIDSticks() throws {
        let paid = try entry().applying(.purchased(transactionID: "1"), at: start)
        #expect(try paid.applying(.purchased(transactionID: "1"), at: start) == paid)
        #expect(throws: JournalError.self) { try paid.applying(.purchased(transactionID: "2"), at: start) }
    }

    @Test("nothing is finished before a decision")
    func noFinishWithoutDecision() throws {
        let paid = try entry().applying(.purchased(transactionID: "1"), at: start)
        #expect(throws: JournalError.self) { try paid.applying(.finished, at: start) }
        let pending = try paid.applying(.serverPending("unbound"), at: start)
        #expect(throws: JournalError.self) { try pending.applying(.finished, at: start) }
    }

    @Test("cancel, fail and defer only before a transaction; Apple's charge reopens a closed entry")
    func closing() throws {
        let deferred = try entry().applying(.deferred, at: start)
        #expect(deferred.state == .deferred && deferred.state.awaitsTransaction)
        let cancelled = try deferred.applying(.cancelled("cancelled"), at: start)
        #expect(cancelled.state == .cancelled && cancelled.state.isClosed)
        #expect(try cancelled.applying(.purchased(transactionID: "9"), at: start).state == .paid)
        let failed = try entry().applying(.failed("not_allowed"), at: start)
        #expect(failed.state == .failed)
        let paid = try entry().applying(.purchased(transactionID: "1"), at: start)
        #expect(throws: JournalError.self) { try paid.applying(.cancelled("late"), at: start) }
        #expect(throws: JournalError.self) { try paid.applying(.deferred, at: start) }
        let finished = try paid.applying(.decided("delivered"), at: start).applying(.finished, at: start)
        #expect(throws: JournalError.self) { try finished.applying(.serverPending("x"), at: start) }
    }
}
