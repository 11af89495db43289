import Foundation
import PurserCore
import PurserStorage
import Testing

extension SharedLedgerConformance {
    /// What the console's sessions and throttle rely on across replicas: an operator disabled through one store is
    /// disabled, with the generation bumped, when the next read comes through another; failed sign-ins recorded
    /// through every store are counted as one; operators seeded by every replica at once are added once; a request
    /// approved through two stores at once is decided once.
    public func sharesTheConsolesOperatorsAndFailuresAcrossStores() async throws {
        let at = now.addingTimeInterval(600 * 86_400)
        let person = ConsoleOperator(name: "sh-li", passwordHash: "$scrypt$x", roles: ["app": .support], updatedAt: at)
        let added = try await withThrowingTaskGroup(of: Bool.self) { group in
            for store in stores { group.addTask { try await store.addConsoleOperator(person, cause: "c", now: at) } }
            return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        #expect(added == 1)
        #expect(try await stores[1].auditTrail(of: "sh-li").count == 1)

        for store in stores { _ = try await store.consoleOperator("sh-li") }  // every store has read it
        _ = try await stores[0].changeConsoleOperator("sh-li", .disabled(true), cause: "console by sh-wang", now: at)
        let seen = try await stores[stores.count - 1].consoleOperator("sh-li")
        #expect(seen?.disabled == true && seen?.generation == 2)

        for (index, store) in stores.enumerated() {
            try await store.recordSignInFailure(
                keys: ["operator:sh-li"], at: at + Double(index), forgettingBefore: at - 300)
        }
        for store in stores {
            #expect(
                try await store.signInFailures(keys: ["operator:sh-li"], since: at) == ["operator:sh-li": stores.count])
        }

        let request = ConsoleGrant(
            id: "sh-g1", app: "app", userID: "sh-ann", currency: "gold", amount: 500, reason: "r",
            requestedBy: "sh-li", requestedAt: at, state: .pending)
        _ = try await stores[0].recordConsoleGrant(request)
        let decided = try await withThrowingTaskGroup(of: Bool.self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask {
                    try await store.decideConsoleGrant("sh-g1", state: .approved, by: "sh-op\(index)", now: at) != nil
                }
            }
            return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        #expect(decided == 1)
        #expect(
            try await stores[1].auditTrail(of: "goodwill-sh-g1").map(\.event) == ["grant_requested", "grant_approved"])
    }

    /// Replicas share the two-person rule's day and the console's ended sessions: twelve grants of 100 asked at once
    /// through every store, against a day of 500, give exactly 500 and leave seven waiting; a session signed out
    /// through one store is ended for every other.
    public func sharesGrantLimitsAndEndedSessionsAcrossStores() async throws {
        let at = now.addingTimeInterval(601 * 86_400)
        let limits = GrantLimits(perGrant: 100, perDay: 500)
        let states = try await withThrowingTaskGroup(of: ConsoleGrant.State.self) { group in
            for index in 0..<12 {
                let grant = ConsoleGrant(
                    id: "sh-day-\(index)", app: "app", userID: "sh-ann", currency: "gold", amount: 100, reason: "r",
                    requestedBy: "sh-zhao", requestedAt: at, state: .granted)
                let store = stores[index % stores.count]
                group.addTask { try await store.recordConsoleGrant(grant, within: limits).state }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(states.filter { $0 == .granted }.count == 5 && states.filter { $0 == .pending }.count == 7)
        for store in stores {
            #expect(
                try await store.consoleGrantTotal(app: "app", requestedBy: "sh-zhao", currency: "gold", since: at - 1)
                    == 500)
        }

        try await stores[0].endConsoleSession("sh-session", expires: at + 3_600, now: at)
        for store in stores { #expect(try await store.consoleSessionEnded("sh-session")) }
    }
}
