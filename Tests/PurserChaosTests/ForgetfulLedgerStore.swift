import Foundation
import PurserCore
import PurserStorage

/// A broken ledger: it does not de-duplicate by transaction id. A transaction it already holds is written again
/// under a fresh key, so every repeat submission credits once more. Swapped into Purser, the chaos run must fail.
final class ForgetfulLedgerStore: ForwardingLedgerStore {
    let inner: any LedgerStore
    private let copies = Counter()

    init(inner: any LedgerStore) { self.inner = inner }

    func settle(_ submission: Submission, now: Date) async throws -> Settlement {
        let id = submission.transaction.transactionID
        guard try await inner.transaction(id)?.state == .credited else {
            return try await inner.settle(submission, now: now)
        }
        var copy = submission
        copy.transaction.transactionID = "\(id)-again-\(copies.next())"
        return try await inner.settle(copy, now: now)
    }
}

/// A broken webhook worker's ledger: a failed attempt is recorded as delivered, so an event the game backend
/// refused is never sent again. Swapped into Purser with the receiver failing, the chaos run must fail.
final class LossyWebhookLedgerStore: ForwardingLedgerStore {
    let inner: any LedgerStore

    init(inner: any LedgerStore) { self.inner = inner }

    func finishWebhookAttempts(_ attempts: [WebhookDelivery.Attempt], holder: String, now: Date) async throws {
        try await inner.finishWebhookAttempts(
            attempts.map { WebhookDelivery.Attempt(deliveryId: $0.deliveryId, outcome: .delivered, result: $0.result) },
            holder: holder, now: now)
    }
}

/// A `LedgerStore` that hands every call to `inner`, so a broken ledger implements only what it breaks.
protocol ForwardingLedgerStore: LedgerStore {
    var inner: any LedgerStore { get }
}

extension ForwardingLedgerStore {
    func settle(_ submission: Submission, now: Date) async throws -> Settlement {
        try await inner.settle(submission, now: now)
    }
    func migrate() async throws { try await inner.migrate() }
    func createOrder(_ order: Order) async throws { try await inner.createOrder(order) }
    func order(_ id: OrderID) async throws -> Order? { try await inner.order(id) }
    func cancelOrder(_ id: OrderID, by user: UserID, reason: String, now: Date) async throws -> OrderCancellation {
        try await inner.cancelOrder(id, by: user, reason: reason, now: now)
    }
    func transaction(_ transactionID: String) async throws -> LedgerTransaction? {
        try await inner.transaction(transactionID)
    }
    func transactions(appTransactionID: String) async throws -> [LedgerTransaction] {
        try await inner.transactions(appTransactionID: appTransactionID)
    }
    func appleFollowUps(clientCreditedBefore: Date, limit: Int) async throws -> [AppleFollowUp] {
        try await inner.appleFollowUps(clientCreditedBefore: clientCreditedBefore, limit: limit)
    }
    func recordAppleFollowUp(transactionID: String, finished: Bool, tokenWritten: OrderID?, now: Date) async throws {
        try await inner.recordAppleFollowUp(
            transactionID: transactionID, finished: finished, tokenWritten: tokenWritten, now: now)
    }
    func balances(of user: UserID) async throws -> [String: Int64] { try await inner.balances(of: user) }
    func auditTrail(of subjectID: String) async throws -> [AuditEvent] { try await inner.auditTrail(of: subjectID) }
    func recordNotification(_ record: NotificationRecord) async throws -> NotificationRecord? {
        try await inner.recordNotification(record)
    }
    func markNotificationProcessed(uuid: String, outcome: String, at: Date) async throws {
        try await inner.markNotificationProcessed(uuid: uuid, outcome: outcome, at: at)
    }
    func processedNotifications(among uuids: [String]) async throws -> Set<String> {
        try await inner.processedNotifications(among: uuids)
    }
    func revoke(_ revocation: Revocation, now: Date) async throws -> RefundOutcome {
        try await inner.revoke(revocation, now: now)
    }
    func restore(transactionID: String, cause: String, now: Date) async throws -> RefundOutcome {
        try await inner.restore(transactionID: transactionID, cause: cause, now: now)
    }
    func cursor(_ name: String) async throws -> String? { try await inner.cursor(name) }
    func setCursor(_ name: String, to value: String, now: Date) async throws {
        try await inner.setCursor(name, to: value, now: now)
    }
    func trace(ofTransaction transactionID: String) async throws -> String? {
        try await inner.trace(ofTransaction: transactionID)
    }
    func historyAnchors() async throws -> [HistoryAnchor] { try await inner.historyAnchors() }
    func statistics() async throws -> LedgerStatistics { try await inner.statistics() }
    func integrity() async throws -> LedgerIntegrity { try await inner.integrity() }
    func health() async throws -> LedgerHealth { try await inner.health() }
    func activity(since: Date) async throws -> LedgerActivity { try await inner.activity(since: since) }
    func recordQueueSample(_ sample: QueueSample, forgettingBefore cutoff: Date) async throws {
        try await inner.recordQueueSample(sample, forgettingBefore: cutoff)
    }
    func timeline(since: Date) async throws -> LedgerTimeline { try await inner.timeline(since: since) }
    func createAPIKey(_ key: APIKey) async throws { try await inner.createAPIKey(key) }
    func apiKeys() async throws -> [APIKey] { try await inner.apiKeys() }
    func apiKey(secretHash: String) async throws -> APIKey? { try await inner.apiKey(secretHash: secretHash) }
    func revokeAPIKey(named name: String, by actor: String, now: Date) async throws -> APIKey? {
        try await inner.revokeAPIKey(named: name, by: actor, now: now)
    }
    func transactionIDs(ownedBy user: UserID, limit: Int) async throws -> [String] {
        try await inner.transactionIDs(ownedBy: user, limit: limit)
    }
    func ownedProductIDs(of user: UserID) async throws -> Set<String> { try await inner.ownedProductIDs(of: user) }
    func walletHistory(of user: UserID, after cursor: WalletHistoryEntry.Cursor?, limit: Int) async throws
        -> WalletHistoryPage
    {
        try await inner.walletHistory(of: user, after: cursor, limit: limit)
    }
    func placeHold(_ request: WalletHold.Request, now: Date) async throws -> WalletHold.Outcome {
        try await inner.placeHold(request, now: now)
    }
    func captureHold(_ id: String, amounts: [String: Int64]?, cause: String, now: Date) async throws
        -> WalletHold.Resolution
    {
        try await inner.captureHold(id, amounts: amounts, cause: cause, now: now)
    }
    func voidHold(_ id: String, cause: String, now: Date) async throws -> WalletHold.Resolution {
        try await inner.voidHold(id, cause: cause, now: now)
    }
    func expireHolds(now: Date, limit: Int) async throws -> Int { try await inner.expireHolds(now: now, limit: limit) }
    func prune(before cutoff: Date, limit: Int, now: Date) async throws -> LedgerPruning {
        try await inner.prune(before: cutoff, limit: limit, now: now)
    }
    func rowsMentioning(_ text: String) async throws -> [LedgerRow] { try await inner.rowsMentioning(text) }
    func eraseUser(_ user: UserID, pseudonym: UserID, cause: String, now: Date) async throws -> UserErasure? {
        try await inner.eraseUser(user, pseudonym: pseudonym, cause: cause, now: now)
    }
    func hold(_ id: String) async throws -> WalletHold? { try await inner.hold(id) }
    func heldAmounts(of user: UserID, now: Date) async throws -> [String: Int64] {
        try await inner.heldAmounts(of: user, now: now)
    }
    func applyWalletTransaction(_ request: WalletTransaction.Request, now: Date) async throws
        -> WalletTransaction.Outcome
    {
        try await inner.applyWalletTransaction(request, now: now)
    }
    func purchases(of user: UserID, limit: Int) async throws -> UserPurchases {
        try await inner.purchases(of: user, limit: limit)
    }
    func webhookDeliveries(forTransaction id: String) async throws -> [WebhookDelivery] {
        try await inner.webhookDeliveries(forTransaction: id)
    }
    func unboundTransactionIDs(limit: Int) async throws -> [String] {
        try await inner.unboundTransactionIDs(limit: limit)
    }
    func waitingOrderIDs(productID: String, createdFrom from: Date, to: Date, limit: Int) async throws -> [OrderID] {
        try await inner.waitingOrderIDs(productID: productID, createdFrom: from, to: to, limit: limit)
    }
    func acquireLease(_ name: String, holder: String, until: Date, now: Date) async throws -> Bool {
        try await inner.acquireLease(name, holder: holder, until: until, now: now)
    }
    func releaseLease(_ name: String, holder: String) async throws {
        try await inner.releaseLease(name, holder: holder)
    }
    func dispatchWebhookEvents(to routes: [WebhookRoute], limit: Int, now: Date) async throws -> Int {
        try await inner.dispatchWebhookEvents(to: routes, limit: limit, now: now)
    }
    func claimWebhookDeliveries(
        endpoint: String, ordered: Bool, holder: String, until: Date, limit: Int, now: Date
    ) async throws -> [WebhookDelivery.Claim] {
        try await inner.claimWebhookDeliveries(
            endpoint: endpoint, ordered: ordered, holder: holder, until: until, limit: limit, now: now)
    }
    func finishWebhookAttempts(_ attempts: [WebhookDelivery.Attempt], holder: String, now: Date) async throws {
        try await inner.finishWebhookAttempts(attempts, holder: holder, now: now)
    }
    func webhookDeliveries(status: WebhookDelivery.Status?, limit: Int) async throws -> [WebhookDelivery] {
        try await inner.webhookDeliveries(status: status, limit: limit)
    }
    func replayWebhookEvent(_ webhookID: String, to routes: [WebhookRoute], operator name: String, now: Date)
        async throws -> [WebhookDelivery]?
    {
        try await inner.replayWebhookEvent(webhookID, to: routes, operator: name, now: now)
    }
    func webhookSummary() async throws -> WebhookSummary { try await inner.webhookSummary() }
    func writeCounts() -> LedgerWriteCounts { inner.writeCounts() }
    var outbox: OutboxIdentity { inner.outbox }
    func close() async throws { try await inner.close() }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
