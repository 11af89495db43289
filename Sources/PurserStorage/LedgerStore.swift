import Foundation
import PurserCore

/// The ledger: orders, Apple transactions (unique by `transactionID`), grants, the audit log and the outbox.
/// One protocol, two implementations: the embedded `SQLiteLedgerStore` and `PostgresLedgerStore`, which several
/// replicas share. Every implementation must pass `LedgerStoreConformance` and `SharedLedgerConformance`.
public protocol LedgerStore: Sendable {
    /// Brings the schema up to date; safe to call at every start, and from several processes at once (each
    /// migration is applied once).
    func migrate() async throws
    func createOrder(_ order: Order) async throws
    func order(_ id: OrderID) async throws -> Order?
    /// Cancels `user`'s waiting order because the app reported that its payment never happened: a `created` order
    /// becomes `cancelled` with an audit record (event `cancelled`, cause `client`, detail `reason`), in one database
    /// transaction. A cancelled order is left as it is (idempotent), and so is a delivered one. Another account's
    /// order is `notFound`. A transaction whose signed `appAccountToken` names the order is still credited to its
    /// owner afterwards; an order hint alone no longer binds one to it (`SubmissionRules`).
    func cancelOrder(_ id: OrderID, by user: UserID, reason: String, now: Date) async throws -> OrderCancellation
    /// Decides a submission with `SubmissionRules` and applies the plan, all in one database transaction.
    func settle(_ submission: Submission, now: Date) async throws -> Settlement
    func transaction(_ transactionID: String) async throws -> LedgerTransaction?
    /// Balances per currency, summed from the user's grants.
    func balances(of user: UserID) async throws -> [String: Int64]
    /// The audit events about one order or transaction id, oldest first.
    func auditTrail(of subjectID: String) async throws -> [AuditEvent]
    /// Records a notification once. Returns the earlier record when this UUID was seen before.
    func recordNotification(_ record: NotificationRecord) async throws -> NotificationRecord?
    /// Marks a recorded notification processed, with what it did.
    func markNotificationProcessed(uuid: String, outcome: String, at: Date) async throws
    /// Which of `uuids` name notifications already processed (a replay of Notification History skips them).
    func processedNotifications(among uuids: [String]) async throws -> Set<String>
    /// Takes back a credited transaction's grants (negative grants; a balance may go negative) and marks it revoked.
    func revoke(transactionID: String, revocationDate: Date, cause: String, now: Date) async throws -> RefundOutcome
    /// Gives back the grants of a revoked transaction whose refund Apple reversed.
    func restore(transactionID: String, cause: String, now: Date) async throws -> RefundOutcome
    /// Where reconciliation stopped last time (a revision, a date), by name; `nil` before the first run.
    func cursor(_ name: String) async throws -> String?
    func setCursor(_ name: String, to value: String, now: Date) async throws
    /// One known transaction per account that owns credited transactions (its latest): the anchors from which
    /// reconciliation walks each customer's Transaction History.
    func historyAnchors() async throws -> [String]
    /// Takes or renews the lease on the unit of background work `name` for `holder` until `until`: true when `holder`
    /// holds it now (it was free, expired at `now`, or `holder`'s already, which this renews). With several replicas
    /// each unit runs on one of them at a time, and a dead replica's unit is taken over once its lease expires.
    ///
    /// Leases on units of background work (reconciliation, notification replay, periodic jobs), and how rows will be
    /// claimed the same way.
    ///
    /// A lease is one row of the `leases` table: `name` (primary key), `holder`, `expires_at` (UTC milliseconds). Taking
    /// it is one conditional upsert, atomic in both stores:
    ///
    ///     INSERT INTO leases (name, holder, expires_at) VALUES (:name, :holder, :until)
    ///     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
    ///     WHERE leases.holder = excluded.holder OR leases.expires_at <= :now
    ///     RETURNING holder
    ///
    /// A row comes back when the caller holds the lease afterwards. A holder renews well before `until` (say at a third
    /// of the term) and stops the work when a renewal returns false: another replica took over after its lease ran out.
    /// Times are the callers' clocks, so replicas' clocks must agree to well within a lease term.
    ///
    /// Rows (the next issue's outbox) are claimed with the same condition on two columns, `claimed_by` and
    /// `claimed_until`, and PostgreSQL's `FOR UPDATE SKIP LOCKED`, so replicas take disjoint batches without waiting:
    ///
    ///     UPDATE outbox SET claimed_by = :holder, claimed_until = :until
    ///     WHERE id IN (SELECT id FROM outbox
    ///                  WHERE delivered_at IS NULL AND (claimed_until IS NULL OR claimed_until <= :now)
    ///                  ORDER BY id LIMIT :batch FOR UPDATE SKIP LOCKED)
    ///     RETURNING id, idempotency_key, topic, payload
    ///
    /// (SQLite has one writer, so the same statement without `FOR UPDATE SKIP LOCKED` is already exclusive.) A row whose
    /// worker died is claimable again once `claimed_until` passes; delivery sets `delivered_at` where `claimed_by` is
    /// still the worker, and the receiver de-duplicates by `idempotency_key`.
    func acquireLease(_ name: String, holder: String, until: Date, now: Date) async throws -> Bool
    /// Gives up `holder`'s lease on `name` so another holder may take it at once; a lease held by another holder
    /// stays as it is.
    func releaseLease(_ name: String, holder: String) async throws
    /// Counts for health checks and benchmarks.
    func statistics() async throws -> LedgerStatistics
    func close() async throws
}

/// The outcome of `settle`: the decision and the ledger's record of the transaction afterwards.
public struct Settlement: Hashable, Sendable {
    public var decision: Decision
    public var record: LedgerTransaction?
    public init(decision: Decision, record: LedgerTransaction?) {
        self.decision = decision
        self.record = record
    }
}

/// Row counts of the main tables.
public struct LedgerStatistics: Hashable, Sendable, Codable {
    public var orders: Int
    public var transactions: Int
    public var creditedTransactions: Int
    public var grants: Int
    public var auditEvents: Int
    public init(orders: Int, transactions: Int, creditedTransactions: Int, grants: Int, auditEvents: Int) {
        self.orders = orders
        self.transactions = transactions
        self.creditedTransactions = creditedTransactions
        self.grants = grants
        self.auditEvents = auditEvents
    }
}
