import Foundation
import PurserCore
import PurserStorage
import Testing

extension LedgerStoreConformance {
    /// Operators in the ledger: added once (a second add changes nothing, as the configuration's seed relies on), a
    /// role per app, and disabling, enabling and a new password each bump the generation that sessions carry, with
    /// an audit record per change naming who made it.
    public func keepsConsoleOperatorsAndBumpsTheirGeneration() async throws {
        let at = now.addingTimeInterval(500 * 86_400)
        let li = ConsoleOperator(
            name: "op-li", passwordHash: "$scrypt$one", roles: ["com.example.game": .support], updatedAt: at)
        #expect(try await store.addConsoleOperator(li, cause: "configuration", now: at))
        var other = li
        other.passwordHash = "$scrypt$two"
        other.roles = ["com.example.game": .admin]
        #expect(try await store.addConsoleOperator(other, cause: "configuration", now: at) == false)
        let kept = try #require(try await store.consoleOperator("op-li"))
        #expect(kept.passwordHash == "$scrypt$one" && kept.roles == ["com.example.game": .support])
        #expect(kept.generation == 1 && !kept.disabled && kept.grantLimit == nil)

        let promoted = try await store.changeConsoleOperator(
            "op-li", .role(app: "com.example.game", .admin), cause: "console by op-wang", now: at + 1)
        #expect(promoted?.roles == ["com.example.game": .admin] && promoted?.generation == 1)
        let second = try await store.changeConsoleOperator(
            "op-li", .role(app: "com.example.other", .viewer), cause: "console by op-wang", now: at + 1)
        #expect(second?.roles == ["com.example.game": .admin, "com.example.other": .viewer])
        let removed = try await store.changeConsoleOperator(
            "op-li", .role(app: "com.example.other", nil), cause: "console by op-wang", now: at + 1)
        #expect(removed?.roles == ["com.example.game": .admin])

        let disabled = try await store.changeConsoleOperator(
            "op-li", .disabled(true), cause: "console by op-wang", now: at + 2)
        #expect(disabled?.disabled == true && disabled?.generation == 2)
        let enabled = try await store.changeConsoleOperator(
            "op-li", .disabled(false), cause: "console by op-wang", now: at + 3)
        #expect(enabled?.disabled == false && enabled?.generation == 3)
        let renewed = try await store.changeConsoleOperator(
            "op-li", .password("$scrypt$three"), cause: "console by op-li", now: at + 4)
        #expect(renewed?.passwordHash == "$scrypt$three" && renewed?.generation == 4)
        let limited = try await store.changeConsoleOperator(
            "op-li", .limits(perGrant: 50, perDay: 200), cause: "console by op-wang", now: at + 5)
        #expect(limited?.grantLimit == 50 && limited?.grantLimitPerDay == 200 && limited?.generation == 4)
        #expect(try await store.changeConsoleOperator("op-nobody", .disabled(true), cause: "c", now: at) == nil)

        let wang = ConsoleOperator(name: "op-wang", passwordHash: "$scrypt$w", roles: [:], updatedAt: at)
        #expect(try await store.addConsoleOperator(wang, cause: "console by op-li", now: at))
        #expect(try await store.consoleOperators().map(\.name).filter { $0.hasPrefix("op-") } == ["op-li", "op-wang"])

        let trail = try await store.auditTrail(of: "op-li")
        #expect(
            trail.map(\.event) == [
                "added", "role_changed", "role_changed", "role_changed", "disabled", "enabled", "password_changed",
                "limits_changed",
            ])
        #expect(trail.allSatisfy { $0.subject == .consoleOperator })
        #expect(trail[4].cause == "console by op-wang" && !trail.contains { $0.detail.contains("$scrypt") })
    }

    /// The sign-in throttle's failures, shared by every replica: counted per key within the window, the old ones
    /// forgotten as new ones are recorded, and one key cleared without touching another.
    public func sharesFailedSignInsInTheLedger() async throws {
        let at = now.addingTimeInterval(501 * 86_400)
        for second in 0..<3 {
            try await store.recordSignInFailure(
                keys: ["operator:cs-li", "address:192.0.2.7"], at: at + Double(second), forgettingBefore: at - 300)
        }
        try await store.recordSignInFailure(keys: ["address:192.0.2.7"], at: at + 10, forgettingBefore: at - 300)
        let counts = try await store.signInFailures(
            keys: ["operator:cs-li", "address:192.0.2.7", "operator:cs-nobody"], since: at)
        #expect(counts == ["operator:cs-li": 3, "address:192.0.2.7": 4])
        #expect(try await store.signInFailures(keys: ["operator:cs-li"], since: at + 2) == ["operator:cs-li": 1])

        try await store.clearSignInFailures(key: "operator:cs-li")
        #expect(
            try await store.signInFailures(keys: ["operator:cs-li", "address:192.0.2.7"], since: at) == [
                "address:192.0.2.7": 4
            ])
        // A failure much later forgets the ones before its window.
        try await store.recordSignInFailure(keys: ["operator:cs-wang"], at: at + 1_000, forgettingBefore: at + 700)
        #expect(
            try await store.signInFailures(keys: ["address:192.0.2.7", "operator:cs-wang"], since: at) == [
                "operator:cs-wang": 1
            ])
    }

    /// Goodwill from the console: a grant within the limits is recorded as `granted` and counts towards its
    /// operator's day; one above them waits `pending` (audited) until a different operator decides it, once.
    public func keepsGrantRequestsUntilASecondOperatorDecides() async throws {
        let at = now.addingTimeInterval(502 * 86_400)
        func grant(_ id: String, amount: Int64, currency: String = "gold", state: ConsoleGrant.State, at time: Date)
            -> ConsoleGrant
        {
            ConsoleGrant(
                id: id, app: "com.example.game", userID: "cg-ann", currency: currency, amount: amount,
                reason: "lost a chest", requestedBy: "cg-li", requestedAt: time, state: state)
        }
        _ = try await store.recordConsoleGrant(grant("cg-1", amount: 40, state: .granted, at: at))
        _ = try await store.recordConsoleGrant(grant("cg-2", amount: 30, state: .granted, at: at + 60))
        _ = try await store.recordConsoleGrant(grant("cg-3", amount: 5, currency: "gems", state: .granted, at: at))
        _ = try await store.recordConsoleGrant(grant("cg-old", amount: 90, state: .granted, at: at - 86_400))
        let pending = try await store.recordConsoleGrant(grant("cg-4", amount: 500, state: .pending, at: at + 120))
        #expect(pending.state == .pending && pending.requestedBy == "cg-li")
        let again = try await store.recordConsoleGrant(grant("cg-4", amount: 1, state: .granted, at: at + 180))
        #expect(again.amount == 500 && again.state == .pending)

        let total = { (currency: String, since: Date) in
            try await store.consoleGrantTotal(
                app: "com.example.game", requestedBy: "cg-li", currency: currency, since: since)
        }
        #expect(try await total("gold", at - 1) == 70)
        #expect(try await total("gems", at - 1) == 5)
        #expect(try await total("gold", at + 30) == 30)
        #expect(
            try await store.consoleGrantTotal(
                app: "com.example.other", requestedBy: "cg-li", currency: "gold", since: at - 1)
                == 0)
        #expect(
            try await store.consoleGrants(app: "com.example.game", state: .pending, limit: 10).map(\.id) == ["cg-4"])

        #expect(try await store.decideConsoleGrant("cg-4", state: .approved, by: "cg-li", now: at + 200) == nil)
        let approved = try await store.decideConsoleGrant("cg-4", state: .approved, by: "cg-wang", now: at + 200)
        #expect(approved?.state == .approved && approved?.decidedBy == "cg-wang")
        #expect(try await store.decideConsoleGrant("cg-4", state: .declined, by: "cg-zhao", now: at + 201) == nil)
        #expect(try await store.consoleGrant("cg-4")?.state == .approved)
        #expect(try await store.consoleGrants(app: "com.example.game", state: .pending, limit: 10).isEmpty)
        // Approved grants had a second operator: they do not count towards the requester's own day.
        #expect(try await total("gold", at - 1) == 70)

        let trail = try await store.auditTrail(of: "goodwill-cg-4")
        #expect(trail.map(\.event) == ["grant_requested", "grant_approved"])
        #expect(trail.last?.cause == "support by cg-li, approved by cg-wang")
        #expect(try await store.auditTrail(of: "goodwill-cg-1").isEmpty)
    }
}
