import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    /// One conditional upsert (LedgerStore+Leases.swift). Two replicas asking at once: PostgreSQL makes the second
    /// wait for the first's row and then evaluates the condition against it, so exactly one of them gets a row back.
    public func acquireLease(_ name: String, holder: String, until: Date, now: Date) async throws -> Bool {
        try await withConnection { connection in
            let rows = try await self.rows(
                connection,
                """
                INSERT INTO leases (name, holder, expires_at) VALUES (\(name), \(holder), \(until.millis))
                ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
                WHERE leases.holder = excluded.holder OR leases.expires_at <= \(now.millis)
                RETURNING holder
                """)
            return !rows.isEmpty
        }
    }

    public func releaseLease(_ name: String, holder: String) async throws {
        try await withConnection { connection in
            try await self.execute(connection, "DELETE FROM leases WHERE name = \(name) AND holder = \(holder)")
        }
    }
}
