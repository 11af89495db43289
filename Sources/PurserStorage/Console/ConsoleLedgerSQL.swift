import Foundation
import PurserCore

/// The console's tables, in SQL both stores run (`serial` and `integer` are each store's words).
enum ConsoleLedgerSQL {
    /// The console's migration: operators, their role per app, failed sign-ins, and goodwill credits and requests.
    static func migration(serial: String, integer: String) -> [String] {
        [
            """
            CREATE TABLE console_operators (
                name TEXT PRIMARY KEY,
                password_hash TEXT NOT NULL,
                disabled \(integer) NOT NULL DEFAULT 0,
                generation \(integer) NOT NULL DEFAULT 1,
                grant_limit \(integer),
                grant_limit_per_day \(integer),
                created_at \(integer) NOT NULL,
                updated_at \(integer) NOT NULL
            )
            """,
            """
            CREATE TABLE console_operator_roles (
                operator_name TEXT NOT NULL,
                app TEXT NOT NULL,
                role TEXT NOT NULL,
                PRIMARY KEY (operator_name, app)
            )
            """,
            """
            CREATE TABLE console_sign_in_failures (
                id \(serial),
                key TEXT NOT NULL,
                at \(integer) NOT NULL
            )
            """,
            "CREATE INDEX console_sign_in_failures_key ON console_sign_in_failures (key, at)",
            "CREATE INDEX console_sign_in_failures_at ON console_sign_in_failures (at)",
            """
            CREATE TABLE console_grants (
                id TEXT PRIMARY KEY,
                app TEXT NOT NULL,
                user_id TEXT NOT NULL,
                currency TEXT NOT NULL,
                amount \(integer) NOT NULL,
                reason TEXT NOT NULL,
                requested_by TEXT NOT NULL,
                requested_at \(integer) NOT NULL,
                state TEXT NOT NULL,
                decided_by TEXT,
                decided_at \(integer)
            )
            """,
            "CREATE INDEX console_grants_state ON console_grants (app, state, requested_at)",
            "CREATE INDEX console_grants_requester ON console_grants (requested_by, currency, requested_at)",
        ]
    }

    /// Console sessions ended by signing out, until their cookie would have expired anyway (`endConsoleSession`).
    static func sessionsMigration(integer: String) -> [String] {
        [
            """
            CREATE TABLE console_ended_sessions (
                id TEXT PRIMARY KEY,
                expires_at \(integer) NOT NULL
            )
            """,
            "CREATE INDEX console_ended_sessions_expiry ON console_ended_sessions (expires_at)",
        ]
    }

    static let operatorColumns =
        "name, password_hash, disabled, generation, grant_limit, grant_limit_per_day, updated_at"
    static let grantColumns =
        "id, app, user_id, currency, amount, reason, requested_by, requested_at, state, decided_by, decided_at"

    static func audit(_ name: String, event: String, cause: String, detail: String, at: Date) -> AuditEvent {
        AuditEvent(at: at, subject: .consoleOperator, subjectID: name, event: event, cause: cause, detail: detail)
    }

    static func roleDetail(_ roles: [String: ConsoleRole]) -> String {
        roles.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.rawValue)" }.joined(separator: ", ")
    }

    static func requestAudit(_ grant: ConsoleGrant) -> AuditEvent {
        AuditEvent(
            at: grant.requestedAt, subject: .wallet, subjectID: "goodwill-\(grant.id)", event: "grant_requested",
            cause: "support by \(grant.requestedBy)",
            detail: "\(grant.userID) \(grant.currency) \(grant.amount): \(grant.reason)")
    }

    static func decisionAudit(_ grant: ConsoleGrant, at: Date) -> AuditEvent {
        let decider = grant.decidedBy ?? ""
        return AuditEvent(
            at: at, subject: .wallet, subjectID: "goodwill-\(grant.id)", event: "grant_\(grant.state.rawValue)",
            cause: "support by \(grant.requestedBy), \(grant.state.rawValue) by \(decider)",
            detail: "\(grant.userID) \(grant.currency) \(grant.amount): \(grant.reason)")
    }
}
