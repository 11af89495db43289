import Foundation
import PurserCore

extension SQLiteLedgerStore {
    public func createOrder(_ order: Order) async throws {
        try await write { database in
            do {
                try database.query(
                    """
                    INSERT INTO orders (id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(order.id.description), .text(order.userID.rawValue), .text(order.productID),
                        .integer(order.quantity), .text(order.state.rawValue), .optionalText(order.transactionID),
                        .integer(Int(order.createdAt.millis)), .integer(Int(order.updatedAt.millis)),
                    ])
            } catch let error as SQLiteFailure where error.isConstraint {
                throw StorageError(.duplicateOrder, "order \(order.id) exists already")
            }
        }
    }

    /// Reads the transaction's record and the order on the writer, plans with `SubmissionRules` and writes the plan,
    /// all in one write of a group-committed batch: nothing can change between the reads and the writes.
    public func settle(_ submission: Submission, now: Date) async throws -> Settlement {
        defer { countSettlement() }
        return try await write { database in
            let statementsBefore = database.statementsRun
            let existing = try Self.transaction(submission.transaction.transactionID, on: database)
            let order = try submission.orderToLookUp.map { try Self.order($0, on: database) } ?? nil
            var plan = try SubmissionRules.plan(submission, existing: existing, order: order, now: now)
            if let owner = plan.balancesNeeded {
                plan = try SubmissionRules.plan(
                    submission, existing: existing, order: order,
                    balances: try Self.writerBalances(owner, on: database), now: now)
            }
            try Self.apply(plan, outbox: self.outbox, on: database, now: now)
            if let traceParent = submission.traceParent, existing != nil || plan.written != nil {
                try database.query(
                    TraceLinkSQL.insert,
                    [.text(submission.transaction.transactionID), .text(traceParent), .integer(Int(now.millis))])
            }
            var settlement = Settlement(plan, existing: existing)
            settlement.statements = database.statementsRun - statementsBefore
            return settlement
        }
    }

    private static func apply(_ plan: LedgerPlan, outbox: OutboxIdentity, on database: SQLiteDatabase, now: Date)
        throws
    {
        let at = SQLiteData.integer(Int(now.millis))
        switch plan.write {
        case .none:
            break
        case .revoke(let record):
            let t = record.transaction
            try database.query(
                """
                UPDATE apple_transactions SET state = 'revoked', revocation_date = ?, revocation_type = ?,
                    revocation_percentage = ?, updated_at = ?
                WHERE transaction_id = ?
                """,
                [
                    .optionalInteger(t.revocationDate?.millis), .optionalText(t.revocationType?.rawValue),
                    .optionalInteger(t.revocationPercentage), at, .text(t.transactionID),
                ])
        case .insert(let record):
            let t = record.transaction
            try database.query(
                """
                INSERT INTO apple_transactions (transaction_id, original_transaction_id, bundle_id, product_id, type,
                    quantity, purchase_date, app_account_token, environment, revocation_date, state, owner_id, order_id,
                    rejection_code, rejection_message, recorded_at, updated_at, revocation_type, revocation_percentage,
                    app_transaction_id, credited_by,
                    app_account_token_for_apple)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(t.transactionID), .text(t.originalTransactionID), .text(t.bundleID), .text(t.productID),
                    .optionalText(t.type), .integer(t.quantity), .integer(Int(t.purchaseDate.millis)),
                    .optionalText(t.appAccountToken?.description), .text(t.environment.rawValue),
                    .optionalInteger(t.revocationDate?.millis), .text(record.state.rawValue),
                    .optionalText(record.ownerID?.rawValue), .optionalText(record.orderID?.description),
                    .optionalText(record.rejection?.code), .optionalText(record.rejection?.message), at, at,
                    .optionalText(t.revocationType?.rawValue), .optionalInteger(t.revocationPercentage),
                    .optionalText(t.appTransactionID), .optionalText(plan.creditedBy),
                    .optionalText(plan.appAccountTokenForApple?.description),
                ])
            try writeGrantsAndOutbox(record, cause: plan.source?.category, outbox: outbox, on: database, at: now)
        case .bind(let record):
            let t = record.transaction
            try database.query(
                """
                UPDATE apple_transactions SET state = ?, owner_id = ?, order_id = ?, updated_at = ?, credited_by = ?,
                    app_account_token_for_apple = ?, rejection_code = NULL, rejection_message = NULL,
                    revocation_date = ?, revocation_type = ?, revocation_percentage = ?
                WHERE transaction_id = ? AND state IN ('unbound', 'rejected')
                """,
                [
                    .text(record.state.rawValue), .optionalText(record.ownerID?.rawValue),
                    .optionalText(record.orderID?.description), at, .optionalText(plan.creditedBy),
                    .optionalText(plan.appAccountTokenForApple?.description),
                    .optionalInteger(t.revocationDate?.millis),
                    .optionalText(t.revocationType?.rawValue), .optionalInteger(t.revocationPercentage),
                    .text(t.transactionID),
                ])
            try writeGrantsAndOutbox(record, cause: plan.source?.category, outbox: outbox, on: database, at: now)
        }
        if let revoke = plan.revoke, let record = plan.written {
            try writeRevoke(revoke, of: record, at: now, outbox: outbox, on: database)
        }
        if let orderID = plan.fulfilledOrder, let transactionID = plan.written?.transaction.transactionID {
            try database.query(
                """
                UPDATE orders SET state = 'delivered', transaction_id = ?, updated_at = ?
                WHERE id = ? AND state IN ('created', 'cancelled')
                """,
                [.text(transactionID), at, .text(orderID.description)])
        }
        for event in plan.audit {
            try insertAudit(event, on: database)
        }
    }

    /// The credit's grants and its outbox event (for the game's backend), for a record that is credited.
    private static func writeGrantsAndOutbox(
        _ record: LedgerTransaction, cause: String?, outbox: OutboxIdentity, on database: SQLiteDatabase, at now: Date
    ) throws {
        guard record.state == .credited || record.state == .revoked, let owner = record.ownerID else { return }
        let id = record.transaction.transactionID
        for (currency, amount) in record.grants.sorted {
            try database.query(
                """
                INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at)
                VALUES (?, ?, ?, ?, 'credit', ?)
                """,
                [.text(id), .text(owner.rawValue), .text(currency), .integer(Int(amount)), .integer(Int(now.millis))])
        }
        try writeOutboxEvent(
            .credited(record, owner: owner, cause: cause, at: Date(millis: now.millis)), outbox: outbox, on: database)
    }

    /// One audit record, inside the caller's write.
    static func insertAudit(_ event: AuditEvent, on database: SQLiteDatabase) throws {
        try database.query(
            "INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .integer(Int(event.at.millis)), .text(event.subject.rawValue), .text(event.subjectID),
                .text(event.event), .text(event.cause), .text(event.detail),
            ])
    }
}
