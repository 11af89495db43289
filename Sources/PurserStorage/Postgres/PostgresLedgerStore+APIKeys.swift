import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    public func createAPIKey(_ key: APIKey) async throws {
        try await inTransaction { connection in
            let scopes = key.scopes.joined(separator: " ")
            let apps = key.apps?.joined(separator: " ")
            let inserted = try await self.rows(
                connection,
                """
                INSERT INTO api_keys (\(unescaped: APIKeySQL.columns))
                VALUES (\(key.name), \(key.secretHash), \(scopes), \(apps), \(key.createdAt.millis), \(key.createdBy),
                    \(key.expiresAt?.millis), \(key.revokedAt?.millis))
                ON CONFLICT DO NOTHING RETURNING name
                """)
            guard !inserted.isEmpty else { throw StorageError(.duplicateKey, "a key named \(key.name) exists") }
            try await self.insertAudit(
                APIKeySQL.audit(key, event: "created", by: key.createdBy, at: key.createdAt), on: connection)
        }
    }

    public func apiKeys() async throws -> [APIKey] {
        try await withConnection { connection in
            try await self.rows(
                connection,
                PostgresQuery(unsafeSQL: "SELECT \(APIKeySQL.columns) FROM api_keys ORDER BY created_at, name")
            ).map(Self.apiKey)
        }
    }

    public func apiKey(secretHash: String) async throws -> APIKey? {
        try await withConnection { connection in
            try await self.rows(
                connection,
                """
                SELECT \(unescaped: APIKeySQL.columns) FROM api_keys
                WHERE secret_hash = \(secretHash)
                """
            ).first.map(Self.apiKey)
        }
    }

    public func revokeAPIKey(named name: String, by actor: String, now: Date) async throws -> APIKey? {
        try await inTransaction { connection in
            let revoked = try await self.rows(
                connection,
                """
                UPDATE api_keys SET revoked_at = \(now.millis) WHERE name = \(name) AND revoked_at IS NULL
                RETURNING \(unescaped: APIKeySQL.columns)
                """)
            if let row = revoked.first {
                let key = try Self.apiKey(row)
                try await self.insertAudit(APIKeySQL.audit(key, event: "revoked", by: actor, at: now), on: connection)
                return key
            }
            return try await self.rows(
                connection,
                """
                SELECT \(unescaped: APIKeySQL.columns) FROM api_keys
                WHERE name = \(name)
                """
            ).first.map(Self.apiKey)
        }
    }

    private static func apiKey(_ row: PostgresRow) throws -> APIKey {
        let row = row.makeRandomAccess()
        return APIKey(
            name: try row.text("name"), secretHash: try row.text("secret_hash"),
            scopes: APIKeySQL.list(try row.text("scopes")) ?? [], apps: APIKeySQL.list(try row.optionalText("apps")),
            createdAt: Date(millis: try row.int64("created_at")), createdBy: try row.text("created_by"),
            expiresAt: try row.optionalInt64("expires_at").map { Date(millis: $0) },
            revokedAt: try row.optionalInt64("revoked_at").map { Date(millis: $0) })
    }
}
