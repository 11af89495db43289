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
        for try await row in try await connection.query(lock.query, logger: logger) {
            let columns = row.makeRandomAccess()
            let id = try columns.text("id")
            switch try columns.text("kind") {
            case "order": orders[id] = try Self.order(from: columns)
            case "transaction": records[id] = try Self.transaction(from: columns, id: id)
            case "sequence": sequences[id] = try columns.int64("last")
            default: throw StorageError(.corrupt, "purser_settle_lock returned a row of an unknown kind")
            }
        }
        var plans: [LedgerPlan] = []
        plans.reserveCapacity(items.count)
        for item in items {
            let existing = records[item.work.transaction.transactionID]
            let order = item.work.orderToLookUp.flatMap { orders[$0.description] }
            var plan = try SubmissionRules.plan(item.work, existing: existing, order: order, now: item.now)
            if let owner = plan.balancesNeeded {
                // Rare: a purchase Apple refunded in part before the credit, whose revoke stops at a zero balance.
                // The balance lock a refund's revoke takes too (a deadlock with one is found by PostgreSQL, and the
                // batch is settled again one submission at a time).
                try await execute(
                    connection, "SELECT pg_advisory_xact_lock(\(Self.balanceLockKey), hashtext(\(owner.rawValue)))")
                plan = try SubmissionRules.plan(
                    item.work, existing: existing, order: order,
                    balances: try await balances(owner, on: connection), now: item.now)
            }
            plans.append(plan)
        }
        let revokeNumbers = try await revokesSoFar(of: plans, on: connection)
        var writes = PostgresSettlementWrites(sequences: sequences, outbox: outbox)
        var settlements: [Settlement] = []
        settlements.reserveCapacity(items.count)
        for (item, plan) in zip(items, plans) {
            let id = item.work.transaction.transactionID
            try writes.add(plan, now: item.now, revokeNumber: (revokeNumbers[id] ?? 0) + 1)
            var settlement = Settlement(plan, existing: records[item.work.transaction.transactionID])
            settlement.batchSize = items.count
            settlements.append(settlement)
        }
        tally.sent(statements: 1, roundTrips: 1)
        _ = try await connection.query(PostgresSettleWrite(writes: writes).query, logger: logger).collect()
        try await linkTraces(of: zip(items, settlements).filter { $0.1.record != nil }.map(\.0), on: connection)
        return settlements
    }

    /// Links each traced submission's transaction (in the ledger now) to its trace, in the batch's transaction: one
    /// statement for the batch, none when nothing in it was traced.
    private func linkTraces(of items: [PostgresSettler.Item], on connection: PostgresConnection) async throws {
        let traced = items.compactMap { item in
            item.work.traceParent.map { (item.work.transaction.transactionID, $0, item.now.millis) }
        }
        guard !traced.isEmpty else { return }
        tally.sent(statements: 1, roundTrips: 1)
        try await execute(
            connection,
            """
            INSERT INTO trace_links (transaction_id, trace_parent, recorded_at)
            SELECT * FROM unnest(\(traced.map(\.0))::TEXT[], \(traced.map(\.1))::TEXT[], \(traced.map(\.2))::BIGINT[])
            ON CONFLICT (transaction_id) DO NOTHING
            """)
    }

    /// How many revokes each transaction a plan revokes again already has (its events' numbers): only repeats of
    /// credited transactions whose signed data carries a new refund need the count, so most batches ask nothing.
    private func revokesSoFar(of plans: [LedgerPlan], on connection: PostgresConnection) async throws
        -> [String: Int]
    {
        let ids = plans.compactMap { plan -> String? in
            if case .revoke(let record) = plan.write { return record.transaction.transactionID }
            return nil
        }
        guard !ids.isEmpty else { return [:] }
        let rows = try await rows(
            connection,
            """
            SELECT subject_id, COUNT(*)::BIGINT AS n FROM audit_log
            WHERE subject = 'transaction' AND event = 'revoked' AND subject_id = ANY (\(ids)::TEXT[])
            GROUP BY subject_id
            """)
        var counts: [String: Int] = [:]
        for row in rows {
            let columns = row.makeRandomAccess()
            counts[try columns.text("subject_id")] = Int(try columns.int64("n"))
        }
        return counts
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
