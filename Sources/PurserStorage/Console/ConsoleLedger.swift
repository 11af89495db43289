import Foundation

/// The console's people in the ledger, so that every replica agrees at once: operators and their roles, ended
/// sessions, the sign-in throttle's failures, and goodwill credits with the requests that wait for a second
/// operator. Part of `LedgerStore`; `LedgerStoreConformance` checks every store's.
public protocol ConsoleLedger: Sendable {
    /// Every operator, by name.
    func consoleOperators() async throws -> [ConsoleOperator]
    func consoleOperator(_ name: String) async throws -> ConsoleOperator?
    /// Adds `person` unless the name is taken (then nothing changes and it returns false), with an audit record
    /// (subject `operator`, event `added`, cause `cause`, detail the roles), in one database transaction.
    func addConsoleOperator(_ person: ConsoleOperator, cause: String, now: Date) async throws -> Bool
    /// Applies `change` to the operator `name` with an audit record (subject `operator`, event `change.event`, cause
    /// `cause`), in one database transaction; disabling, enabling and a new password bump the generation. Returns
    /// the operator afterwards; `nil` when there is none.
    func changeConsoleOperator(_ name: String, _ change: ConsoleOperator.Change, cause: String, now: Date)
        async throws -> ConsoleOperator?

    /// Ends the console session `id` (its cookie's nonce) on every replica: its cookie is refused from then on. The
    /// record is kept until `expires` (the cookie's own end); ended sessions past theirs are forgotten.
    func endConsoleSession(_ id: String, expires: Date, now: Date) async throws
    /// Whether the console session `id` was ended (`endConsoleSession`).
    func consoleSessionEnded(_ id: String) async throws -> Bool

    /// Failed sign-ins at or after `since`, counted per key (keys without any are absent).
    func signInFailures(keys: [String], since: Date) async throws -> [String: Int]
    /// Records one failed sign-in under each of `keys` at `at`, and forgets every failure before `forgettingBefore`.
    func recordSignInFailure(keys: [String], at: Date, forgettingBefore: Date) async throws
    /// Forgets `key`'s failures (a successful sign-in clears its name's).
    func clearSignInFailures(key: String) async throws

    /// Records a console goodwill credit or request once by its id, with an audit record for a `pending` one
    /// (subject `wallet`, id `goodwill-<id>`, event `grant_requested`, cause `support by <requester>`). With
    /// `limits`, the state is theirs to decide (`GrantLimits.decide`) from what the requester gave alone in the
    /// grant's app and currency in the day before it, read in the same database transaction as the grant is written,
    /// under a lock on that day, so concurrent grants on any replica never give more than the day's limit; without,
    /// the grant is recorded in its own state. Returns what the ledger holds under the id afterwards (the earlier
    /// record when the id was recorded before).
    func recordConsoleGrant(_ grant: ConsoleGrant, within limits: GrantLimits?) async throws -> ConsoleGrant
    func consoleGrant(_ id: String) async throws -> ConsoleGrant?
    /// `app`'s grants in `state`, oldest first, at most `limit`.
    func consoleGrants(app: String, state: ConsoleGrant.State, limit: Int) async throws -> [ConsoleGrant]
    /// What `requester` gave alone (`granted`) in `app` and `currency` at or after `since`.
    func consoleGrantTotal(app: String, requestedBy requester: String, currency: String, since: Date) async throws
        -> Int64
    /// Decides a `pending` request: it becomes `state` (`approved` or `declined`) by `decider`, unless it is not
    /// pending any more or `decider` is its requester (then nothing changes and it returns nil).
    func decideConsoleGrant(_ id: String, state: ConsoleGrant.State, by decider: String, now: Date) async throws
        -> ConsoleGrant?
}

extension ConsoleLedger {
    /// Records `grant` in its own state (`recordConsoleGrant(_:within:)` without limits).
    public func recordConsoleGrant(_ grant: ConsoleGrant) async throws -> ConsoleGrant {
        try await recordConsoleGrant(grant, within: nil)
    }
}
