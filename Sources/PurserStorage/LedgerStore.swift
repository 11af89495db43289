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
