import Foundation
import PurserCore

extension SQLiteLedgerStore {
    public func createAPIKey(_ key: APIKey) async throws {
        try await write { database in
            let inserted = try database.query(
                "INSERT INTO api_keys (\(APIKeySQL.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING "
                    + "RETURNING name",
                [
                    .text(key.name), .text(key.secretHash), .text(key.scopes.joined(separator: " ")),
                    .optionalText(key.apps?.joined(separator: " ")), .integer(Int(key.createdAt.millis)),
                    .text(key.createdBy), .optionalInteger(key.expiresAt?.millis),
                    .optionalInteger(key.revokedAt?.millis),
                ])
            guard !inserted.isEmpty else { throw StorageError(.duplicateKey, "a key named \(key.name) exists") }
            try Self.insertAudit(
                APIKeySQL.audit(key, event: "created", by: key.createdBy, at: key.createdAt), on: database)
        }
    }

    public func apiKeys() async throws -> [APIKey] {
        try await read("SELECT \(APIKeySQL.columns) FROM api_keys ORDER BY created_at, name", []).map(Self.apiKey)
    }

    public func apiKey(secretHash: String) async throws -> APIKey? {
        try await read("SELECT \(APIKeySQL.columns) FROM api_keys WHERE secret_hash = ?", [.text(secretHash)])
            .first.map(Self.apiKey)
    }

    public func revokeAPIKey(named name: String, by actor: String, now: Date) async throws -> APIKey? {
        try await write { database in
            let revoked = try database.query(
                "UPDATE api_keys SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL RETURNING \(APIKeySQL.columns)",
                [.integer(Int(now.millis)), .text(name)])
            if let row = revoked.first {
                let key = try Self.apiKey(row)
                try Self.insertAudit(APIKeySQL.audit(key, event: "revoked", by: actor, at: now), on: database)
                return key
            }
            return try database.query("SELECT \(APIKeySQL.columns) FROM api_keys WHERE name = ?", [.text(name)])
                .first.map(Self.apiKey)
        }
    }

    private static func apiKey(_ row: SQLiteRow) throws -> APIKey {
        APIKey(
            name: try row.text("name"), secretHash: try row.text("secret_hash"),
            scopes: APIKeySQL.list(try row.text("scopes")) ?? [], apps: APIKeySQL.list(row.optionalText("apps")),
            createdAt: Date(millis: Int64(try row.int("created_at"))), createdBy: try row.text("created_by"),
            expiresAt: row.optionalInt("expires_at").map { Date(millis: Int64($0)) },
            revokedAt: row.optionalInt("revoked_at").map { Date(millis: Int64($0)) })
    }
}
