import Foundation
import PurserCore

/// The ledger: orders, Apple transactions (unique by `transactionID`), grants, the audit log and the outbox.
/// One protocol with an embedded SQLite implementation; every implementation must pass `LedgerStoreConformance`.
public protocol LedgerStore: Sendable {
    /// Brings the schema up to date; safe to call at every start.
    func migrate() async throws
    func createOrder(_ order: Order) async throws
    func order(_ id: OrderID) async throws -> Order?
    /// Decides a submission with `SubmissionRules` and applies the plan, all in one database transaction.
    func settle(_ submission: Submission, now: Date) async throws -> Settlement
    func transaction(_ transactionID: String) async throws -> LedgerTransaction?
    /// Balances per currency, summed from the user's grants.
    func balances(of user: UserID) async throws -> [String: Int64]
    /// The audit events about one order or transaction id, oldest first.
    func auditTrail(of subjectID: String) async throws -> [AuditEvent]
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
