import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    public func endConsoleSession(_ id: String, expires: Date, now: Date) async throws {
        try await inTransaction { connection in
            try await self.execute(connection, "DELETE FROM console_ended_sessions WHERE expires_at < \(now.millis)")
            try await self.execute(
                connection,
                """
                INSERT INTO console_ended_sessions (id, expires_at) VALUES (\(id), \(expires.millis))
                ON CONFLICT (id) DO NOTHING
                """)
        }
    }

    public func consoleSessionEnded(_ id: String) async throws -> Bool {
        try await withConnection { connection in
            try await !self.rows(connection, "SELECT 1 FROM console_ended_sessions WHERE id = \(id)").isEmpty
        }
    }
}
