import Foundation
import PurserCore

extension SQLiteLedgerStore {
    public func endConsoleSession(_ id: String, expires: Date, now: Date) async throws {
        try await write { database in
            try database.query(
                "DELETE FROM console_ended_sessions WHERE expires_at < ?", [.integer(Int(now.millis))])
            try database.query(
                "INSERT INTO console_ended_sessions (id, expires_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING",
                [.text(id), .integer(Int(expires.millis))])
        }
    }

    public func consoleSessionEnded(_ id: String) async throws -> Bool {
        try await !read("SELECT 1 AS ended FROM console_ended_sessions WHERE id = ?", [.text(id)]).isEmpty
    }
}
