import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    /// One database transaction: lock the order (if the submission names one), lock and read the transaction's
    /// record, plan with `SubmissionRules`, write. Two replicas settling one transaction at once: the order lock
    /// queues them when there is an order; otherwise the unique `transaction_id` does. The insert that loses waits for
    /// the winner's commit (`ON CONFLICT DO NOTHING`), and the loser decides again against the winner's record,
    /// answering exactly what a second submission after it would get.
    public func settle(_ submission: Submission, now: Date) async throws -> Settlement {
        try await inTransaction { connection in
            let id = submission.transaction.transactionID
            let order =
                try await submission.orderToLookUp.asyncMap {
                    try await Self.order($0, on: connection, lock: true, logger: self.logger)
                } ?? nil
            let existing = try await self.lockedTransaction(id, on: connection)
            let plan = SubmissionRules.plan(submission, existing: existing, order: order, now: now)
            if try await self.apply(plan, on: connection, now: now) {
                return Settlement(
                    decision: plan.decision, record: plan.written ?? existing, appleFollowUp: .owed(by: plan))
            }
            // Another connection recorded the transaction between our read and our insert, and committed.
            guard let winner = try await self.lockedTransaction(id, on: connection) else {
                throw StorageError(.corrupt, "transaction \(id) conflicted on insert but cannot be read")
            }
            let repeated = SubmissionRules.plan(submission, existing: winner, order: order, now: now)
            guard try await self.apply(repeated, on: connection, now: now) else {
                throw StorageError(.corrupt, "transaction \(id) conflicted twice")
            }
            return Settlement(
                decision: repeated.decision, record: repeated.written ?? winner, appleFollowUp: .owed(by: repeated))
        }
    }

    /// The record of `id`, locked for the rest of the transaction, or nil.
    func lockedTransaction(_ id: String, on connection: PostgresConnection) async throws -> LedgerTransaction? {
        guard try await Self.lockTransaction(id, on: connection, logger: logger) else { return nil }
        return try await Self.transaction(id, on: connection, logger: logger)
    }

    /// Writes `plan`; false (having written nothing) when its insert met a record another connection committed.
    private func apply(_ plan: LedgerPlan, on connection: PostgresConnection, now: Date) async throws -> Bool {
        let at = now.millis
        switch plan.write {
        case .none:
            break
        case .insert(let record):
            let t = record.transaction
            let inserted = try await rows(
                connection,
                """
                INSERT INTO apple_transactions (transaction_id, original_transaction_id, bundle_id, product_id, type,
                    quantity, purchase_date, app_account_token, environment, revocation_date, state, owner_id, order_id,
                    rejection_code, rejection_message, recorded_at, updated_at, app_transaction_id, credited_by,
                    app_account_token_for_apple)
                VALUES (\(t.transactionID), \(t.originalTransactionID), \(t.bundleID), \(t.productID), \(t.type),
                    \(t.quantity), \(t.purchaseDate.millis), \(t.appAccountToken?.description),
                    \(t.environment.rawValue), \(t.revocationDate?.millis), \(record.state.rawValue),
                    \(record.ownerID?.rawValue), \(record.orderID?.description), \(record.rejection?.code),
                    \(record.rejection?.message), \(at), \(at), \(t.appTransactionID), \(plan.creditedBy),
                    \(plan.appAccountTokenForApple?.description))
                ON CONFLICT (transaction_id) DO NOTHING RETURNING transaction_id
                """)
            guard !inserted.isEmpty else { return false }
            try await writeGrantsAndOutbox(record, cause: plan.source?.category, on: connection, at: at)
        case .bind(let record):
            try await execute(
                connection,
                """
                UPDATE apple_transactions SET state = \(record.state.rawValue), owner_id = \(record.ownerID?.rawValue),
                    order_id = \(record.orderID?.description), updated_at = \(at), credited_by = \(plan.creditedBy),
                    app_account_token_for_apple = \(plan.appAccountTokenForApple?.description)
                WHERE transaction_id = \(record.transaction.transactionID) AND state = 'unbound'
                """)
            try await writeGrantsAndOutbox(record, cause: plan.source?.category, on: connection, at: at)
        }
        if let orderID = plan.fulfilledOrder, let transactionID = plan.written?.transaction.transactionID {
            try await execute(
                connection,
                """
                UPDATE orders SET state = 'delivered', transaction_id = \(transactionID), updated_at = \(at)
                WHERE id = \(orderID.description) AND state IN ('created', 'cancelled')
                """)
        }
        for event in plan.audit {
            try await insertAudit(event, on: connection)
        }
        return true
    }

    /// The credit's grants and its outbox event (for the game's backend), for a record that is credited.
    private func writeGrantsAndOutbox(
        _ record: LedgerTransaction, cause: String?, on connection: PostgresConnection, at: Int64
    ) async throws {
        guard record.state == .credited, let owner = record.ownerID else { return }
        let id = record.transaction.transactionID
        for (currency, amount) in record.grants.sorted {
            try await execute(
                connection,
                """
                INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at)
                VALUES (\(id), \(owner.rawValue), \(currency), \(amount), 'credit', \(at))
                """)
        }
        try await writeOutboxEvent(
            .credited(record, owner: owner, cause: cause, at: Date(millis: at)), on: connection)
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
