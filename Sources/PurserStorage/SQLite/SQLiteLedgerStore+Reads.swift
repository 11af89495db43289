import Foundation
import PurserCore

extension SQLiteLedgerStore {
    public func order(_ id: OrderID) async throws -> Order? {
        try await reading { try Self.order(id, on: $0) }
    }

    public func transaction(_ transactionID: String) async throws -> LedgerTransaction? {
        try await reading { try Self.transaction(transactionID, on: $0) }
    }

    public func balances(of user: UserID) async throws -> [String: Int64] {
        try Self.balances(from: try await read(Self.balancesQuery, [.text(user.rawValue)]))
    }

    public func auditTrail(of subjectID: String) async throws -> [AuditEvent] {
        let rows = try await read(
            "SELECT at, subject, subject_id, event, cause, detail FROM audit_log WHERE subject_id = ? ORDER BY id",
            [.text(subjectID)])
        return try rows.map { row in
            guard let subject = AuditEvent.Subject(rawValue: try row.text("subject")) else {
                throw StorageError(.corrupt, "an audit record has an unknown subject")
            }
            return AuditEvent(
                at: Date(millis: try row.int("at")), subject: subject, subjectID: try row.text("subject_id"),
                event: try row.text("event"), cause: try row.text("cause"), detail: try row.text("detail"))
        }
    }

    public func statistics() async throws -> LedgerStatistics {
        let rows = try await read(
            """
            SELECT (SELECT COUNT(*) FROM orders) AS orders,
                   (SELECT COUNT(*) FROM apple_transactions) AS transactions,
                   (SELECT COUNT(*) FROM apple_transactions WHERE state = 'credited') AS credited,
                   (SELECT COUNT(*) FROM grants) AS grants,
                   (SELECT COUNT(*) FROM audit_log) AS audit
            """, [])
        guard let row = rows.first else { throw StorageError(.corrupt, "statistics returned no row") }
        return LedgerStatistics(
            orders: try row.int("orders"), transactions: try row.int("transactions"),
            creditedTransactions: try row.int("credited"), grants: try row.int("grants"),
            auditEvents: try row.int("audit"))
    }
}
