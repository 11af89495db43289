import Foundation
import PurserCore

/// The API keys' table and statements, standard SQL both stores run (bound values are `?` here; PostgreSQL's
/// store interpolates them).
enum APIKeySQL {
    /// Migration 14: one row per key, its secret only as a hash. `scopes` and `apps` are space-separated lists
    /// (`apps` NULL: every app).
    static let migration = [
        """
        CREATE TABLE api_keys (
            name TEXT PRIMARY KEY,
            secret_hash TEXT NOT NULL UNIQUE,
            scopes TEXT NOT NULL,
            apps TEXT,
            created_at BIGINT NOT NULL,
            created_by TEXT NOT NULL,
            expires_at BIGINT,
            revoked_at BIGINT
        )
        """
    ]

    static let columns = "name, secret_hash, scopes, apps, created_at, created_by, expires_at, revoked_at"

    /// The audit record of a key's creation or revocation (subject `api_key`, the key's name as its id).
    static func audit(_ key: APIKey, event: String, by actor: String, at: Date) -> AuditEvent {
        let expiry = key.expiresAt.map { "; expires \(ISO8601DateFormatter().string(from: $0))" } ?? ""
        return AuditEvent(
            at: at, subject: .apiKey, subjectID: key.name, event: event, cause: "by \(actor)",
            detail: "scopes \(key.scopes.joined(separator: " ")); apps "
                + (key.apps?.joined(separator: " ") ?? "all") + expiry)
    }

    /// A stored list back as the key's fields hold it.
    static func list(_ text: String?) -> [String]? {
        text.map { $0.split(separator: " ").map(String.init) }
    }
}
