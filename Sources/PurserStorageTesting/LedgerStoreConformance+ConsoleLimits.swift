import Foundation
import PurserCore
import PurserStorage
import Testing

extension LedgerStoreConformance {
    /// The two-person rule holds under concurrency: twelve grants of 100 asked at once by one support operator whose
    /// day allows 500 are decided in the ledger, each seeing the others: exactly five are given, seven wait for a
    /// second operator (each audited), and a grant of another currency or app has a day of its own. An admin's grant
    /// (no limits) is given whatever the day holds, and a second record of one id changes nothing.
    public func keepsTheDaysGrantLimitUnderConcurrentGrants() async throws {
        let at = now.addingTimeInterval(503 * 86_400)
        let limits = GrantLimits(perGrant: 100, perDay: 500)
        func grant(_ id: String, amount: Int64 = 100, currency: String = "gold", app: String = "com.example.game")
            -> ConsoleGrant
        {
            ConsoleGrant(
                id: id, app: app, userID: "cl-ann", currency: currency, amount: amount, reason: "lost a chest",
                requestedBy: "cl-li", requestedAt: at, state: .granted)
        }
        let recorded = try await withThrowingTaskGroup(of: ConsoleGrant.self) { group in
            for index in 0..<12 {
                group.addTask { try await store.recordConsoleGrant(grant("cl-\(index)"), within: limits) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(recorded.filter { $0.state == .granted }.count == 5)
        #expect(recorded.filter { $0.state == .pending }.count == 7)
        #expect(
            try await store.consoleGrantTotal(
                app: "com.example.game", requestedBy: "cl-li", currency: "gold", since: at - 1) == 500)
        let waiting = try await store.consoleGrants(app: "com.example.game", state: .pending, limit: 100)
        #expect(waiting.filter { $0.requestedBy == "cl-li" }.count == 7)
        for pending in recorded where pending.state == .pending {
            #expect(try await store.auditTrail(of: "goodwill-\(pending.id)").map(\.event) == ["grant_requested"])
        }

        // Above the per-grant limit it waits whatever the day holds; another currency and another app have days of
        // their own; no limits (an admin's grant) gives it.
        #expect(
            try await store.recordConsoleGrant(grant("cl-big", amount: 101, currency: "gems"), within: limits)
                .state == .pending)
        #expect(
            try await store.recordConsoleGrant(grant("cl-gems", currency: "gems"), within: limits).state == .granted)
        #expect(
            try await store.recordConsoleGrant(grant("cl-other", app: "com.example.other"), within: limits).state
                == .granted)
        #expect(try await store.recordConsoleGrant(grant("cl-admin"), within: nil).state == .granted)
        // The same id again is the first record, whatever is asked.
        let first = try #require(recorded.first)
        let again = try await store.recordConsoleGrant(grant(first.id, amount: 1), within: limits)
        #expect(again == first)
    }

    /// A signed-out console session is refused from then on (`endConsoleSession`), and ended sessions past their
    /// expiry are forgotten as others end.
    public func endsConsoleSessionsForGood() async throws {
        let at = now.addingTimeInterval(504 * 86_400)
        #expect(try await store.consoleSessionEnded("cs-one") == false)
        try await store.endConsoleSession("cs-one", expires: at + 3_600, now: at)
        try await store.endConsoleSession("cs-one", expires: at + 3_600, now: at)
        try await store.endConsoleSession("cs-two", expires: at + 60, now: at)
        #expect(try await store.consoleSessionEnded("cs-one"))
        #expect(try await store.consoleSessionEnded("cs-two"))
        #expect(try await store.consoleSessionEnded("cs-three") == false)
        // Once its cookie would have expired, an ended session need not be kept.
        try await store.endConsoleSession("cs-three", expires: at + 7_200, now: at + 120)
        #expect(try await store.consoleSessionEnded("cs-two") == false)
        #expect(try await store.consoleSessionEnded("cs-one"))
        #expect(try await store.consoleSessionEnded("cs-three"))
    }
}
