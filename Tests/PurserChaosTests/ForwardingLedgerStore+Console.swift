import Foundation
import PurserStorage

/// The console's part of the ledger, handed to `inner` like the rest.
extension ForwardingLedgerStore {
    func consoleOperators() async throws -> [ConsoleOperator] { try await inner.consoleOperators() }
    func consoleOperator(_ name: String) async throws -> ConsoleOperator? { try await inner.consoleOperator(name) }
    func addConsoleOperator(_ person: ConsoleOperator, cause: String, now: Date) async throws -> Bool {
        try await inner.addConsoleOperator(person, cause: cause, now: now)
    }
    func changeConsoleOperator(_ name: String, _ change: ConsoleOperator.Change, cause: String, now: Date)
        async throws -> ConsoleOperator?
    {
        try await inner.changeConsoleOperator(name, change, cause: cause, now: now)
    }
    func signInFailures(keys: [String], since: Date) async throws -> [String: Int] {
        try await inner.signInFailures(keys: keys, since: since)
    }
    func recordSignInFailure(keys: [String], at: Date, forgettingBefore: Date) async throws {
        try await inner.recordSignInFailure(keys: keys, at: at, forgettingBefore: forgettingBefore)
    }
    func clearSignInFailures(key: String) async throws { try await inner.clearSignInFailures(key: key) }
    func endConsoleSession(_ id: String, expires: Date, now: Date) async throws {
        try await inner.endConsoleSession(id, expires: expires, now: now)
    }
    func consoleSessionEnded(_ id: String) async throws -> Bool { try await inner.consoleSessionEnded(id) }
    func recordConsoleGrant(_ grant: ConsoleGrant, within limits: GrantLimits?) async throws -> ConsoleGrant {
        try await inner.recordConsoleGrant(grant, within: limits)
    }
    func consoleGrant(_ id: String) async throws -> ConsoleGrant? { try await inner.consoleGrant(id) }
    func consoleGrants(app: String, state: ConsoleGrant.State, limit: Int) async throws -> [ConsoleGrant] {
        try await inner.consoleGrants(app: app, state: state, limit: limit)
    }
    func consoleGrantTotal(app: String, requestedBy requester: String, currency: String, since: Date)
        async throws -> Int64
    {
        try await inner.consoleGrantTotal(app: app, requestedBy: requester, currency: currency, since: since)
    }
    func decideConsoleGrant(_ id: String, state: ConsoleGrant.State, by decider: String, now: Date)
        async throws -> ConsoleGrant?
    {
        try await inner.decideConsoleGrant(id, state: state, by: decider, now: now)
    }
}
