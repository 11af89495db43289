import Foundation
import PurserCore

extension SQLiteLedgerStore {
    /// One conditional upsert on the writer (LedgerStore+Leases.swift): the write lock and SQLite's file lock make it
    /// atomic, also against other stores on the same file.
    public func acquireLease(_ name: String, holder: String, until: Date, now: Date) async throws -> Bool {
        try await write { database in
            let rows = try database.query(
                """
                INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)
                ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
                WHERE leases.holder = excluded.holder OR leases.expires_at <= ?
                RETURNING holder
                """, [.text(name), .text(holder), .integer(Int(until.millis)), .integer(Int(now.millis))])
            return !rows.isEmpty
        }
    }

    public func releaseLease(_ name: String, holder: String) async throws {
        try await write { database in
            try database.query(
                "DELETE FROM leases WHERE name = ? AND holder = ?", [.text(name), .text(holder)])
        }
    }
}
