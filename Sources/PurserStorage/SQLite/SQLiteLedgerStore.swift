import Foundation
import Logging
import PurserCore
import SQLiteNIO

/// The embedded ledger: one SQLite file in WAL mode with `synchronous=FULL`. Writes go through one connection,
/// one database transaction at a time (`BEGIN IMMEDIATE`); reads use a second connection and never block them.
/// Orders and settlements, the hot path, are group-committed (`SQLiteGroupCommit`): those waiting for the writer
/// share one transaction and one fsync, each in its own savepoint, and each caller is answered after that commit.
/// Reads also run one at a time: statements that overlap on one SQLite connection share a single read snapshot, so
/// a read that starts while another is still stepping would not see what the writer committed in between.
public final class SQLiteLedgerStore: LedgerStore {
    let writer: SQLiteConnection
    private let reader: SQLiteConnection
    let writeLock = AsyncSerialLock()
    let groupCommit: SQLiteGroupCommit
    private let readLock = AsyncSerialLock()
    private let logger: Logger

    private init(writer: SQLiteConnection, reader: SQLiteConnection, logger: Logger) {
        self.writer = writer
        self.reader = reader
        self.logger = logger
        groupCommit = SQLiteGroupCommit(writer: writer, lock: writeLock)
    }

    /// 64 MiB of page cache per connection (SQLite's default is 2 MiB): the indexes' inner pages of a ledger of
    /// millions of purchases stay in memory, so a settlement does not read them from the file again.
    static let cacheSize = "PRAGMA cache_size=-65536"

    /// Opens (creating if needed) the ledger at `path`. Call `migrate()` before use.
    public static func open(path: String, logger: Logger) async throws -> SQLiteLedgerStore {
        do {
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
            let writer = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
            // The busy timeout first: another store opening the same file may hold it while it switches to WAL.
            for pragma in [
                "PRAGMA busy_timeout=5000", "PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL",
                "PRAGMA foreign_keys=ON", Self.cacheSize,
            ] {
                _ = try await writer.query(pragma)
            }
            let reader = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
            for pragma in ["PRAGMA busy_timeout=5000", Self.cacheSize] { _ = try await reader.query(pragma) }
            return SQLiteLedgerStore(writer: writer, reader: reader, logger: logger)
        } catch {
            throw StorageError(.unavailable, "cannot open the SQLite ledger at \(path)", underlying: error)
        }
    }

    /// Each migration runs in its own `BEGIN IMMEDIATE` transaction, which also reads whether it was applied: another
    /// store migrating the same file at the same moment waits for the write lock and then finds it done.
    public func migrate() async throws {
        do {
            try await migrateUnderLock()
        } catch {
            throw Self.classified(error)
        }
    }

    private func migrateUnderLock() async throws {
        try await writeLock.withLock {
            _ = try await self.writer.query(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)"
            )
            for migration in Self.migrations {
                let applied = try await self.inTransaction {
                    let done = try await self.writer.query(
                        "SELECT 1 FROM schema_migrations WHERE version = ?", [.integer(migration.version)])
                    guard done.isEmpty else { return false }
                    for statement in migration.statements { _ = try await self.writer.query(statement) }
                    _ = try await self.writer.query(
                        "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)",
                        [.integer(migration.version), .integer(Int(Date().millis))])
                    return true
                }
                guard applied else { continue }
                self.logger.info("applied ledger migration", metadata: ["purser.migration": "\(migration.version)"])
            }
        }
    }

    public func createOrder(_ order: Order) async throws {
        try await groupCommit.perform { _ in
            do {
                _ = try await self.writer.query(
                    """
                    INSERT INTO orders (id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(order.id.description), .text(order.userID.rawValue), .text(order.productID),
                        .integer(order.quantity), .text(order.state.rawValue), .optionalText(order.transactionID),
                        .integer(Int(order.createdAt.millis)), .integer(Int(order.updatedAt.millis)),
                    ])
            } catch let error as SQLiteError
                where error.reason == .constraint || error.reason == .constraintPrimaryKeyFailed
            {
                throw StorageError(.duplicateOrder, "order \(order.id) exists already")
            } catch {
                throw Self.classified(error)
            }
        }
    }

    public func order(_ id: OrderID) async throws -> Order? {
        try await reading { try await Self.order(id, on: $0) }
    }

    public func settle(_ submission: Submission, now: Date) async throws -> Settlement {
        try await groupCommit.perform { _ in
            let id = submission.transaction.transactionID
            let existing = try await Self.transaction(id, on: self.writer)
            let order =
                try await submission.orderToLookUp.asyncMap { try await Self.order($0, on: self.writer) } ?? nil
            let plan = SubmissionRules.plan(submission, existing: existing, order: order, now: now)
            try await self.apply(plan, now: now)
            return Settlement(
                decision: plan.decision, record: plan.written ?? existing, appleFollowUp: .owed(by: plan))
        }
    }

    public func transaction(_ transactionID: String) async throws -> LedgerTransaction? {
        try await reading { try await Self.transaction(transactionID, on: $0) }
    }

    public func balances(of user: UserID) async throws -> [String: Int64] {
        let rows = try await read(
            "SELECT currency, SUM(amount) AS total FROM grants WHERE user_id = ? GROUP BY currency",
            [.text(user.rawValue)])
        var balances: [String: Int64] = [:]
        for row in rows {
            balances[try row.text("currency")] = Int64(try row.int("total"))
        }
        return balances
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

    public func close() async throws {
        try await reader.close()
        try await writer.close()
    }

    // MARK: - Writing a plan

    /// Runs `body` between `BEGIN IMMEDIATE` and `COMMIT` on the writer; rolls back on any error.
    func inTransaction<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        _ = try await query(writer, "BEGIN IMMEDIATE", [])
        do {
            let result = try await body()
            _ = try await query(writer, "COMMIT", [])
            return result
        } catch {
            _ = try? await writer.query("ROLLBACK")
            throw Self.classified(error)
        }
    }

    private func apply(_ plan: LedgerPlan, now: Date) async throws {
        let at = SQLiteData.integer(Int(now.millis))
        switch plan.write {
        case .none:
            break
        case .insert(let record):
            let t = record.transaction
            _ = try await query(
                writer,
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
                    t.revocationDate.map { .integer(Int($0.millis)) } ?? .null, .text(record.state.rawValue),
                    .optionalText(record.ownerID?.rawValue), .optionalText(record.orderID?.description),
                    .optionalText(record.rejection?.code), .optionalText(record.rejection?.message), at, at,
                    .optionalText(t.revocationType?.rawValue), t.revocationPercentage.map { .integer($0) } ?? .null,
                    .optionalText(t.appTransactionID), .optionalText(plan.creditedBy),
                    .optionalText(plan.appAccountTokenForApple?.description),
                ])
            try await writeGrantsAndOutbox(record, cause: plan.source?.category, at: at)
        case .bind(let record):
            _ = try await query(
                writer,
                """
                UPDATE apple_transactions SET state = ?, owner_id = ?, order_id = ?, updated_at = ?, credited_by = ?,
                    app_account_token_for_apple = ?
                WHERE transaction_id = ? AND state = 'unbound'
                """,
                [
                    .text(record.state.rawValue), .optionalText(record.ownerID?.rawValue),
                    .optionalText(record.orderID?.description), at, .optionalText(plan.creditedBy),
                    .optionalText(plan.appAccountTokenForApple?.description), .text(record.transaction.transactionID),
                ])
            try await writeGrantsAndOutbox(record, cause: plan.source?.category, at: at)
        }
        if let orderID = plan.fulfilledOrder, let transactionID = plan.written?.transaction.transactionID {
            _ = try await query(
                writer,
                "UPDATE orders SET state = 'delivered', transaction_id = ?, updated_at = ? WHERE id = ? AND state IN ('created', 'cancelled')",
                [.text(transactionID), at, .text(orderID.description)])
        }
        for event in plan.audit {
            _ = try await query(
                writer,
                "INSERT INTO audit_log (at, subject, subject_id, event, cause, detail) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    .integer(Int(event.at.millis)), .text(event.subject.rawValue), .text(event.subjectID),
                    .text(event.event), .text(event.cause), .text(event.detail),
                ])
        }
    }

    /// The credit's grants and its outbox event (for the game's backend), for a record that is credited.
    private func writeGrantsAndOutbox(_ record: LedgerTransaction, cause: String?, at: SQLiteData) async throws {
        guard record.state == .credited, let owner = record.ownerID else { return }
        let id = record.transaction.transactionID
        for (currency, amount) in record.grants.sorted {
            _ = try await query(
                writer,
                "INSERT INTO grants (transaction_id, user_id, currency, amount, kind, created_at) VALUES (?, ?, ?, ?, 'credit', ?)",
                [.text(id), .text(owner.rawValue), .text(currency), .integer(Int(amount)), at])
        }
        try await writeOutboxEvent(.credited(record, owner: owner, cause: cause, at: Date(millis: at.integer ?? 0)))
    }

    /// Runs `body` on the read connection, alone: no other read statement is active while it steps.
    func reading<T: Sendable>(_ body: @Sendable (SQLiteConnection) async throws -> T) async throws -> T {
        do {
            return try await readLock.withLock { try await body(self.reader) }
        } catch {
            throw Self.classified(error)
        }
    }

    /// A read query, run alone on the read connection (see `reading`).
    func read(_ sql: String, _ binds: [SQLiteData]) async throws -> [SQLiteRow] {
        try await reading { try await self.query($0, sql, binds) }
    }

    /// A query whose failure is reported without SQL or values in the message.
    func query(_ connection: SQLiteConnection, _ sql: String, _ binds: [SQLiteData]) async throws -> [SQLiteRow] {
        do {
            return try await connection.query(sql, binds)
        } catch {
            throw StorageError(sqlite: error)
        }
    }
}

extension SQLiteLedgerStore {
    /// SQLite's own errors as `StorageError` (see `init(sqlite:)`); any other error as it is.
    static func classified(_ error: any Error) -> any Error {
        error is SQLiteError ? StorageError(sqlite: error) : error
    }
}

extension Optional {
    func asyncMap<U>(_ transform: (Wrapped) async throws -> U) async rethrows -> U? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
