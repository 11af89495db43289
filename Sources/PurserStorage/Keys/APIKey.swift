import Foundation

/// A key of the admin API as the ledger keeps it: its name, the SHA-256 of its secret (never the secret), what it may
/// do and for which apps, and when it was made, expires and was revoked. Kept in the ledger so every replica knows
/// a new or revoked key at its next request.
public struct APIKey: Hashable, Sendable {
    /// Unique for good: a revoked key keeps its name, so the audit log's `key:NAME` names one key.
    public var name: String
    /// SHA-256 of the secret, in lowercase hex: how a request's bearer token finds its key.
    public var secretHash: String
    /// The scopes the key may use (`ledger:read`, `support:write`, …, or `*`), as given.
    public var scopes: [String]
    /// The bundle ids the key may act on; `nil` is every app.
    public var apps: [String]?
    public var createdAt: Date
    /// Who made it: `key:NAME`, an operator, or `cli` for `purser keys create`.
    public var createdBy: String
    public var expiresAt: Date?
    public var revokedAt: Date?

    public init(
        name: String, secretHash: String, scopes: [String], apps: [String]?, createdAt: Date, createdBy: String,
        expiresAt: Date? = nil, revokedAt: Date? = nil
    ) {
        self.name = name
        self.secretHash = secretHash
        self.scopes = scopes
        self.apps = apps
        self.createdAt = createdAt
        self.createdBy = createdBy
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
    }

    /// Whether a request may use the key at `now`: not revoked and not expired.
    public func isUsable(at now: Date) -> Bool {
        revokedAt == nil && (expiresAt.map { now < $0 } ?? true)
    }
}
