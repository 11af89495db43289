import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    /// Queues the submission for the next settlement batch (`PostgresSettler`) and returns its settlement once that
    /// batch has committed. Two replicas settling one transaction at once: the advisory lock on its id (and the row
    /// lock on its order) queues them, and the second decides against the first's committed record, answering exactly
    /// what a second submission after it would get. The unique `transaction_id` stays the last word.
    public func settle(_ submission: Submission, now: Date) async throws -> Settlement {
        try await settler.submit(submission, now: now)
    }

    /// Settles `items` in one database transaction: `BEGIN`, `purser_settle_lock`, the rules in Swift,
    /// `purser_settle_write`, `COMMIT`: four round trips for the whole batch. A batch that fails for any reason but
    /// the database being unavailable is settled again one submission at a time, so that one bad settlement sinks no
    /// other.
    func settleBatch(_ items: [PostgresSettler.Item]) async {
        let settle: ([PostgresSettler.Item]) async throws -> [Settlement] = { batch in
            try await self.inTransaction { connection in try await self.settle(batch, on: connection) }
        }
        await PostgresSettler.answer(
            items, logger: logger, what: "settlement", answered: { tally.settled($0.count) }, settle)
    }

    private func settle(_ items: [PostgresSettler.Item], on connection: PostgresConnection) async throws
        -> [Settlement]
    {
        let lock = PostgresSettleLock(
            orderIDs: items.compactMap { $0.work.orderToLookUp?.description },
            transactionIDs: items.map { $0.work.transaction.transactionID },
            users: items.compactMap { item in
                guard case .support(_, let user, _) = item.work.source else { return nil }
                return user.rawValue
            })
        tally.sent(statements: 1, roundTrips: 1)
        var orders: [String: Order] = [:]
        var records: [String: LedgerTransaction] = [:]
        var sequences: [String: Int64] = [:]
        for try await row in try await connection.execute(lock, logger: logger) {
            let columns = row.makeRandomAccess()
            let id = try columns.text("id")
            switch try columns.text("kind") {
            case "order": orders[id] = try Self.order(from: columns)
            case "transaction": records[id] = try Self.transaction(from: columns, id: id)
            case "sequence": sequences[id] = try columns.int64("last")
            default: throw StorageError(.corrupt, "purser_settle_lock returned a row of an unknown kind")
            }
        }
        var writes = PostgresSettlementWrites(sequences: sequences)
        var settlements: [Settlement] = []
        settlements.reserveCapacity(items.count)
        for item in items {
            let existing = records[item.work.transaction.transactionID]
            let order = item.work.orderToLookUp.flatMap { orders[$0.description] }
            let plan = SubmissionRules.plan(item.work, existing: existing, order: order, now: item.now)
            try writes.add(plan, now: item.now)
            settlements.append(Settlement(plan, existing: existing))
        }
        tally.sent(statements: 1, roundTrips: 1)
        _ = try await connection.execute(PostgresSettleWrite(writes: writes), logger: logger)
        return settlements
    }

    /// One audit record.
    func insertAudit(_ event: AuditEvent, on connection: PostgresConnection) async throws {
        try await execute(
            connection,
            """
            INSERT INTO audit_log (at, subject, subject_id, event, cause, detail)
            VALUES (\(event.at.millis), \(event.subject.rawValue), \(event.subjectID), \(event.event), \(event.cause),
                \(event.detail))
            """)
    }
}
