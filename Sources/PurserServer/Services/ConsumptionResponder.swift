import AppStoreVerification
import Foundation
import PurserCore
import PurserStorage

/// Answers Apple's CONSUMPTION_REQUEST from the ledger, through a configurable policy: `DELIVERED` when Purser
/// credited the transaction, the configured `UNDELIVERED_…` status when it never did (unknown, unbound, rejected,
/// revoked), how much of the grant is spent, and a refund preference by rule. Read through `LedgerStore.transaction`
/// and `balances(of:)`; the App Store Server API call itself is injected (`viaServerAPI` sends v2 or v1).
///
/// **Consumed share.** A credited transaction's grant counts as spent as far as the currency spent since (through the
/// wallet API: spends, hold captures) went beyond what the wallet held before it: first in, first out
/// (`SpentFirstInFirstOut`), the largest share over the grant's currencies, in milliunits (100000 is all of it), rounded
/// down. A game whose own backend spends what Purser credits, outside Purser's wallet, sets `assumeSpent`: every
/// delivered grant then counts as all spent.
public struct ConsumptionResponder: Sendable {
    /// Which Send Consumption Information to call.
    public enum Version: String, Sendable, CaseIterable, Encodable {
        /// `PUT /inApps/v1/transactions/consumption/{id}` with the older integer-coded body.
        case v1
        /// `PUT /inApps/v2/transactions/consumption/{id}` (API 1.19).
        case v2
    }

    /// The refund preference (Apple's `DECLINE`, `GRANT_FULL`, `GRANT_PRORATED`) by what the ledger knows; `nil`
    /// sends none. `GRANT_PRORATED` is sent only with a consumed share above 0, as Apple requires; otherwise none.
    public struct RefundRules: Sendable, Hashable, Encodable {
        /// Purser never delivered it.
        public var undelivered: String? = "GRANT_FULL"
        /// Delivered, and the owner's balance still covers the whole grant.
        public var unspent: String?
        /// Delivered, and part of the grant is spent.
        public var partlySpent: String? = "GRANT_PRORATED"
        /// Delivered, and none of the grant is left.
        public var spent: String? = "DECLINE"
        public init() {}
    }

    /// What the responder sends and when.
    public struct Policy: Sendable {
        /// Apple refuses an answer without the customer's consent; without it nothing is sent.
        public var customerConsented = false
        public var version = Version.v2
        public var sampleContentProvided = false
        /// Count every delivered grant as all spent, instead of reading the owner's balance.
        public var assumeSpent = false
        public var undeliveredStatus = AppStoreServerAPI.DeliveryStatus.undeliveredOther
        public var refundPreference = RefundRules()
        public init() {}
    }

    /// What Purser tells Apple about one transaction.
    public struct Report: Sendable, Hashable {
        public var transactionID: String
        /// Apple's v2 `deliveryStatus`: `DELIVERED`, or the policy's undelivered status.
        public var deliveryStatus: AppStoreServerAPI.DeliveryStatus
        /// Milliunits of the grant spent; 0 when undelivered.
        public var consumptionPercentage: Int
        public var refundPreference: AppStoreServerAPI.RefundPreference?
        public var sampleContentProvided: Bool
        /// The order the transaction was bound to, for v1's `appAccountToken`.
        public var orderID: OrderID?
    }

    let store: any LedgerStore
    let policy: Policy
    let send: @Sendable (Report) async throws -> Void

    public init(
        store: any LedgerStore, policy: Policy = .init(), send: @escaping @Sendable (Report) async throws -> Void
    ) {
        self.store = store
        self.policy = policy
        self.send = send
    }

    /// Sends the report for `transactionID`, unless the customer did not consent; says what it did.
    func respond(to transactionID: String) async throws -> String {
        guard policy.customerConsented else {
            return "consumption request not answered (the customer did not consent)"
        }
        let report = try await report(for: transactionID)
        try await send(report)
        return "consumption information sent (\(policy.version.rawValue)): \(report.deliveryStatus) "
            + "\(report.consumptionPercentage / 1000)% consumed, refund preference "
            + (report.refundPreference?.rawValue ?? "none")
    }

    /// What the ledger says about `transactionID`, under the policy.
    public func report(for transactionID: String) async throws -> Report {
        let record = try await store.transaction(transactionID)
        guard let record, record.state == .credited, let owner = record.ownerID else {
            return Report(
                transactionID: transactionID, deliveryStatus: policy.undeliveredStatus, consumptionPercentage: 0,
                refundPreference: preference(policy.refundPreference.undelivered, consumed: 0),
                sampleContentProvided: policy.sampleContentProvided, orderID: record?.orderID)
        }
        let consumed = policy.assumeSpent ? 100_000 : try await spentShare(of: record, owner: owner)
        let rule: String? =
            switch consumed {
            case 0: policy.refundPreference.unspent
            case 100_000: policy.refundPreference.spent
            default: policy.refundPreference.partlySpent
            }
        return Report(
            transactionID: transactionID, deliveryStatus: .delivered, consumptionPercentage: consumed,
            refundPreference: preference(rule, consumed: consumed),
            sampleContentProvided: policy.sampleContentProvided, orderID: record.orderID)
    }

    private func preference(_ rule: String?, consumed: Int) -> AppStoreServerAPI.RefundPreference? {
        guard let rule else { return nil }
        let preference = AppStoreServerAPI.RefundPreference(rawValue: rule)
        return preference == .grantProrated && consumed == 0 ? nil : preference
    }

    /// The consumed share of `record`'s grant, first in, first out from `owner`'s whole wallet history; as far as
    /// the balance no longer covers it when the history holds no credit of it.
    private func spentShare(of record: LedgerTransaction, owner: UserID) async throws -> Int {
        if let share = SpentFirstInFirstOut.consumedShare(
            of: record.transaction.transactionID, grants: record.grants,
            history: try await store.walletHistory(of: owner))
        {
            return share
        }
        return Self.consumedShare(of: record.grants, balances: try await store.balances(of: owner))
    }

    /// The share of `grants` the balance no longer covers, in milliunits: the fallback when the history does not show
    /// the credit.
    static func consumedShare(of grants: Grants, balances: [String: Int64]) -> Int {
        var share = 0
        for (currency, amount) in grants.amounts where amount > 0 {
            let left = min(max(balances[currency] ?? 0, 0), amount)
            share = max(share, Int((Double(amount - left) / Double(amount) * 100_000).rounded(.down)))
        }
        return share
    }
}
