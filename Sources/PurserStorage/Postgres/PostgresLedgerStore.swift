import Foundation
import Logging
import PostgresNIO
import PurserCore
import ServiceLifecycle
import Synchronization

/// The ledger several `purser serve` replicas share: PostgreSQL through postgres-nio's pooled, reconnecting
/// `PostgresClient`. Every operation is one database transaction on one pooled connection (READ COMMITTED); row locks
/// (`SELECT … FOR UPDATE` on the order and the transaction) and the unique `transaction_id` decide races between
/// replicas, so each decision is the one `SubmissionRules` gives for the ledger as it stands once the locks are held.
///
/// The store is itself a `Service`: its `run()` runs the connection pool and must be running while the store is used
/// (queries wait for it). Put the store in the server's `ServiceGroup` before the HTTP server, so that at shutdown the
/// pool closes after the server has drained its requests; call `migrate()` once `run()` has started (for instance in
/// `beforeServerStarts`). `run()` returns on graceful shutdown, on cancellation, or after `close()`; call it once.
///
/// Connection trouble (refused, reset, terminated, database gone, no connection handed out for
/// `connectionWaitTimeout`) throws `StorageError(.unavailable)`; the pool reconnects by itself, so the same store
/// works again once the database is back. Money is BIGINT; times are BIGINT milliseconds since 1970 UTC, as in
/// SQLite, so both stores return the very same values (TIMESTAMPTZ would keep microseconds that SQLite drops).
public final class PostgresLedgerStore: LedgerStore, Service {
    /// The client operations use: the URL's one server, or the one of several that qualifies now.
    let servers: PostgresServerSwitch
    let logger: Logger
    let connectionWaitTimeout: Duration
    /// The schema of this ledger (`Configuration.inSchema`), created by `migrate()`; nil: the database's default.
    let schema: String?
    let tally = LedgerWriteTally()
    /// What every outbox event this store writes is stamped with: a random webhook id, the app.
    public let outbox: OutboxIdentity
    let settler: PostgresSettler
    let walletBatcher: PostgresWalletBatcher
    /// When the pool last handed a connection to an operation: a pool that serves is busy, not unreachable.
    let lastConnectionHandedOut = Mutex(ContinuousClock.now)
    private let closed: AsyncStream<Void>
    private let closing: AsyncStream<Void>.Continuation

    /// A store on `configuration`'s database; nothing connects until `run()` runs and the first query asks.
    /// `outbox`: what its webhook events are stamped with (the app they name, the ids' randomness).
    public init(configuration: Configuration, outbox: OutboxIdentity = OutboxIdentity(), logger: Logger) {
        self.outbox = outbox
        self.servers = PostgresServerSwitch(configuration: configuration, logger: logger)
        self.logger = logger
        self.connectionWaitTimeout = configuration.connectionWaitTimeout
        self.schema = configuration.schema
        self.settler = PostgresSettler(workers: configuration.settlementWorkers)
        self.walletBatcher = PostgresWalletBatcher(workers: configuration.settlementWorkers) { ["w:" + $0.id] }
        (closed, closing) = AsyncStream<Void>.makeStream()
    }

    /// Runs the connection pool until graceful shutdown, cancellation or `close()`.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.servers.run() }
            group.addTask { await self.settler.run { await self.settleBatch($0) } }
            group.addTask { await self.walletBatcher.run { await self.applyWalletBatch($0) } }
            group.addTask { for await _ in self.closed {} }
            await group.next()
            group.cancelAll()
        }
    }

    /// The database server the store talks to now (nil while a multi-host URL's failover finds none that qualifies),
    /// and how many times it has chosen one (1 once connected; each failover adds one; 0 for a one-server URL).
    public var databaseServer: (server: Configuration.Server?, choices: Int) { servers.server }

    public func writeCounts() -> LedgerWriteCounts {
        LedgerWriteCounts(
            settlements: tally.settlements, statements: tally.statements, commits: tally.commits,
            roundTrips: tally.roundTrips)
    }

    /// Ends `run()`, closing the pool; later operations throw `storage_unavailable`.
    public func close() async throws {
        closing.finish()
    }

    public func createOrder(_ order: Order) async throws {
        try await withConnection { connection in
            do {
                try await self.execute(
                    connection,
                    """
                    INSERT INTO orders (id, user_id, product_id, quantity, state, transaction_id, created_at,
                        updated_at)
                    VALUES (\(order.id.description), \(order.userID.rawValue), \(order.productID), \(order.quantity),
                        \(order.state.rawValue), \(order.transactionID), \(order.createdAt.millis),
                        \(order.updatedAt.millis))
                    """)
            } catch let error as PSQLError where error.sqlState == PostgresSQLState.uniqueViolation {
                throw StorageError(.duplicateOrder, "order \(order.id) exists already")
            }
        }
    }

    public func order(_ id: OrderID) async throws -> Order? {
        try await withConnection { try await self.order(id, on: $0, lock: false) }
    }

    public func transaction(_ transactionID: String) async throws -> LedgerTransaction? {
        try await withConnection { try await self.transaction(transactionID, on: $0) }
    }

    public func balances(of user: UserID) async throws -> [String: Int64] {
        try await withConnection { try await self.balances(user, on: $0) }
    }

    public func auditTrail(of subjectID: String) async throws -> [AuditEvent] {
        let rows = try await withConnection { connection in
            try await self.rows(
                connection,
                """
                SELECT at, subject, subject_id, event, cause, detail FROM audit_log WHERE subject_id = \(subjectID)
                ORDER BY id
                """)
        }
        return try rows.map { row in
            let columns = row.makeRandomAccess()
            guard let subject = AuditEvent.Subject(rawValue: try columns.text("subject")) else {
                throw StorageError(.corrupt, "an audit record has an unknown subject")
            }
            return AuditEvent(
                at: Date(millis: try columns.int64("at")), subject: subject,
                subjectID: try columns.text("subject_id"), event: try columns.text("event"),
                cause: try columns.text("cause"), detail: try columns.text("detail"))
        }
    }

    public func statistics() async throws -> LedgerStatistics {
        let rows = try await withConnection { connection in
            try await self.rows(
                connection,
                """
                SELECT (SELECT COUNT(*) FROM orders) AS orders,
                       (SELECT COUNT(*) FROM apple_transactions) AS transactions,
                       (SELECT COUNT(*) FROM apple_transactions WHERE state = 'credited') AS credited,
                       (SELECT COUNT(*) FROM grants) AS grants,
                       (SELECT COUNT(*) FROM audit_log) AS audit
                """)
        }
        guard let row = rows.first?.makeRandomAccess() else {
            throw StorageError(.corrupt, "statistics returned no row")
        }
        return LedgerStatistics(
            orders: Int(try row.int64("orders")), transactions: Int(try row.int64("transactions")),
            creditedTransactions: Int(try row.int64("credited")), grants: Int(try row.int64("grants")),
            auditEvents: Int(try row.int64("audit")))
    }
}

extension PostgresLedgerStore: CustomStringConvertible {
    /// What the service group logs for it: never the connection settings, which hold the password.
    public var description: String { "PostgresLedgerStore" }
}
