import Foundation
import PurserCore

/// The ledger: orders, Apple transactions (unique by `transactionID`), grants, the audit log and the outbox.
/// One protocol, two implementations: the embedded `SQLiteLedgerStore` and `PostgresLedgerStore`, which several
/// replicas share. Every implementation must pass `LedgerStoreConformance` and `SharedLedgerConformance`.
public protocol LedgerStore: ConsoleLedger {
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
    /// The transactions of one Apple account in this app, by Apple's `appTransactionId`, oldest first (at most 500).
    func transactions(appTransactionID: String) async throws -> [LedgerTransaction]
    /// Up to `limit` follow-ups owed to Apple (see `AppleFollowUp` for when finishing is due), least recently changed
    /// first; a transaction the app credited is due for finishing once credited at or before `clientCreditedBefore`.
    func appleFollowUps(clientCreditedBefore: Date, limit: Int) async throws -> [AppleFollowUp]
    /// Marks follow-ups done: `finished` sets the transaction's `finishedAtApple` to `now` (once); `tokenWritten`
    /// clears the owed token if it is still that one (a later bind may have owed another).
    func recordAppleFollowUp(transactionID: String, finished: Bool, tokenWritten: OrderID?, now: Date) async throws
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
    /// Takes back the share of a credited transaction's grants that Apple has refunded (`RefundRules`: per currency,
    /// the floor of the cumulative share less what earlier refunds took) as negative grants, marks it revoked with
    /// that share, and writes the outbox event and the audit record, in one database transaction. A share no larger
    /// than the one already revoked changes nothing. With `allowNegativeBalance` false a currency is taken only down
    /// to a zero balance; the rest is the shortfall, in the outcome, the audit record and the event.
    func revoke(_ revocation: Revocation, now: Date) async throws -> RefundOutcome
    /// Gives back exactly what a revoked transaction's refunds took (the sum of its revokes) when Apple reversed the
    /// refund, and marks it credited again.
    func restore(transactionID: String, cause: String, now: Date) async throws -> RefundOutcome
    /// Where reconciliation stopped last time (a revision, a date), by name; `nil` before the first run.
    func cursor(_ name: String) async throws -> String?
    func setCursor(_ name: String, to value: String, now: Date) async throws
    /// The `traceparent` of the first traced settlement of `transactionID` (`Submission.traceParent`), or `nil`.
    func trace(ofTransaction transactionID: String) async throws -> String?
    /// One known transaction per account that owns credited transactions (its latest), with the account, in the
    /// accounts' order: the anchors from which reconciliation walks each customer's Transaction History.
    func historyAnchors() async throws -> [HistoryAnchor]
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
    /// Rows are claimed with the same condition on two columns, `claimed_by` and `claimed_until`, and PostgreSQL's
    /// `FOR UPDATE SKIP LOCKED`, so replicas take disjoint batches without waiting: `claimWebhookDeliveries` does
    /// exactly this on `webhook_deliveries` (one row per outbox event and endpoint):
    ///
    ///     UPDATE webhook_deliveries SET claimed_by = :holder, claimed_until = :until
    ///     WHERE id IN (SELECT id FROM webhook_deliveries
    ///                  WHERE endpoint = :endpoint AND status IN ('pending', 'failed') AND next_attempt_at <= :now
    ///                    AND (claimed_until IS NULL OR claimed_until <= :now)
    ///                  ORDER BY next_attempt_at, id LIMIT :batch FOR UPDATE SKIP LOCKED)
    ///
    /// (SQLite has one writer, so the same statement without `FOR UPDATE SKIP LOCKED` is already exclusive.) A row whose
    /// worker died is claimable again once `claimed_until` passes; a failed attempt is recorded only where `claimed_by`
    /// is still the worker, and the receiver de-duplicates by the event's `webhook-id`.
    func acquireLease(_ name: String, holder: String, until: Date, now: Date) async throws -> Bool
    /// Gives up `holder`'s lease on `name` so another holder may take it at once; a lease held by another holder
    /// stays as it is.
    func releaseLease(_ name: String, holder: String) async throws

    // MARK: The webhook outbox (an event per credit, revoke and restore; a delivery per event and endpoint)

    /// Fans out up to `limit` outbox events not fanned out yet, oldest first: one `pending` delivery, due `now`, for
    /// each route that takes the event's type. Several replicas may call it at once; each event is fanned out once.
    /// Returns how many events it took.
    func dispatchWebhookEvents(to routes: [WebhookRoute], limit: Int, now: Date) async throws -> Int
    /// Claims up to `limit` of `endpoint`'s deliveries that are due at `now` and not claimed (or whose claim expired)
    /// for `holder` until `until`, soonest due first (see `acquireLease` for the statement). `ordered` (the endpoint's
    /// `ordered: true`) also skips every delivery that `WebhookOrdering` holds back: an event of a user waits while
    /// an earlier event of that user is not yet fanned out or its delivery to `endpoint` is pending or failed, so a
    /// user's events go out one at a time in `sequence` order, whichever replica claims them.
    func claimWebhookDeliveries(
        endpoint: String, ordered: Bool, holder: String, until: Date, limit: Int, now: Date
    ) async throws -> [WebhookDelivery.Claim]
    /// Records attempts: a delivered one becomes `delivered` whoever holds it now; a failed one is rescheduled (or
    /// dead-lettered) only while `holder` still holds its claim. Every attempt counts in `attempts`.
    func finishWebhookAttempts(_ attempts: [WebhookDelivery.Attempt], holder: String, now: Date) async throws
    /// Deliveries, newest first, of one status or all.
    func webhookDeliveries(status: WebhookDelivery.Status?, limit: Int) async throws -> [WebhookDelivery]
    /// The deliveries of one transaction's events (its credit, revokes, restores), oldest first.
    func webhookDeliveries(forTransaction transactionID: String) async throws -> [WebhookDelivery]
    /// Replays the event `webhookID` to `routes` that take its type: each delivery becomes `pending`, due `now`, with
    /// no attempts (delivered and dead ones too), with an audit record (subject `webhook`, event `replayed`, cause
    /// `support by <operator>`), in one database transaction. Returns the event's deliveries afterwards; `nil` when
    /// the outbox has no such event. Throws `StorageError(.pruned)` when retention dropped its payload.
    func replayWebhookEvent(_ webhookID: String, to routes: [WebhookRoute], operator name: String, now: Date)
        async throws -> [WebhookDelivery]?
    /// Counts for operators, the chaos harness's drain check and benchmarks.
    func webhookSummary() async throws -> WebhookSummary
    /// Counts for health checks and benchmarks.
    func statistics() async throws -> LedgerStatistics
    /// The ledger's own fsck: every rule of `LedgerIntegrity` checked, and the balances' totals.
    func integrity() async throws -> LedgerIntegrity
    /// What waits: unbound transactions, waiting orders, undelivered webhook events, each with its oldest.
    func health() async throws -> LedgerHealth
    /// The ids of the transactions credited to `user`, newest recorded first (support's search by user id).
    func transactionIDs(ownedBy user: UserID, limit: Int) async throws -> [String]
    /// What `user` owns: the product ids of the transactions credited to them and not revoked (the wallet's
    /// entitlements, and the check that refuses a second order for a non-consumable already owned).
    func ownedProductIDs(of user: UserID) async throws -> Set<String>
    /// Applies a spend or deposit once by its idempotency id, all currencies or none, in one database transaction
    /// with its `wallet.changed` outbox event and audit record. The same id with the same request replays the first
    /// record; with another request it is a conflict; a spend the balance cannot cover changes nothing.
    func applyWalletTransaction(_ request: WalletTransaction.Request, now: Date) async throws
        -> WalletTransaction.Outcome
    /// Reserves amounts on a user's wallet once by the hold's id: the available balance (balance less open holds)
    /// must cover each currency, or nothing changes.
    func placeHold(_ request: WalletHold.Request, now: Date) async throws -> WalletHold.Outcome
    /// Captures all (`amounts` nil) or part of an open hold, releasing the rest: a `wallet.changed` spend with id
    /// `hold:<id>`. A hold resolves once; the same capture again replays.
    func captureHold(_ id: String, amounts: [String: Int64]?, cause: String, now: Date) async throws
        -> WalletHold.Resolution
    /// Releases an open hold. A hold resolves once; voiding it again replays.
    func voidHold(_ id: String, cause: String, now: Date) async throws -> WalletHold.Resolution
    /// Expires up to `limit` open holds past their expiry (the leased sweep): each once, whoever sweeps.
    func expireHolds(now: Date, limit: Int) async throws -> Int
    /// Retention (the leased job): drops up to `limit` each of the payloads of fully delivered webhook events recorded
    /// before `cutoff`, processed notifications received before it (never the newest) and leases expired before it.
    /// Nothing financial is ever pruned.
    func prune(before cutoff: Date, limit: Int, now: Date) async throws -> LedgerPruning
    /// Every row of every table holding `text` as itself (not inside a longer id) in a text column: a user's export,
    /// and the check that an erased id is gone.
    func rowsMentioning(_ text: String) async throws -> [LedgerRow]
    /// Erases `user` in one database transaction: the id becomes `pseudonym` wherever it occurs as itself (but in
    /// callers' idempotency ids), the user's wallet metadata is dropped, amounts, transaction ids and dates stay;
    /// with an audit record (subject `user`, event `erased`) and a `user.erased` event. `nil` when nothing holds it.
    func eraseUser(_ user: UserID, pseudonym: UserID, cause: String, now: Date) async throws -> UserErasure?
    func hold(_ id: String) async throws -> WalletHold?
    /// What `user`'s open holds unexpired at `now` reserve, per currency.
    func heldAmounts(of user: UserID, now: Date) async throws -> [String: Int64]
    /// `user`'s wallet history, newest first: every purchase credit, revoke and restore (one entry per transaction and
    /// kind and moment) and every spend and deposit, up to `limit` after `cursor`.
    func walletHistory(of user: UserID, after cursor: WalletHistoryEntry.Cursor?, limit: Int) async throws
        -> WalletHistoryPage
    /// `user`'s orders and transactions, newest first, at most `limit` of each (support's user page), including the
    /// purchases the ledger refused or could not bind.
    func purchases(of user: UserID, limit: Int) async throws -> UserPurchases
    /// Support's queue: the ids of unbound transactions, oldest recorded first.
    func unboundTransactionIDs(limit: Int) async throws -> [String]
    /// Orders still waiting for `productID` created in `from...to`, oldest first: who might own an unbound purchase.
    /// What happened since `since`: audit events counted by kind, and the last notification received.
    func activity(since: Date) async throws -> LedgerActivity
    /// Records the queues' sizes for the dashboard and forgets samples from before `cutoff` (the sampler's job).
    func recordQueueSample(_ sample: QueueSample, forgettingBefore cutoff: Date) async throws
    /// The dashboard's timeline since `since`: credits and revokes per hour, the decisions' mix, the queue samples.
    func timeline(since: Date) async throws -> LedgerTimeline
    func waitingOrderIDs(productID: String, createdFrom from: Date, to: Date, limit: Int) async throws -> [OrderID]
    /// Stores a new API key with its audit record (subject `api_key`, event `created`, cause `by <createdBy>`) in one
    /// database transaction; a key of the same name, revoked or not, is `StorageError(.duplicateKey)`.
    func createAPIKey(_ key: APIKey) async throws
    /// Every API key, revoked and expired ones too, oldest first.
    func apiKeys() async throws -> [APIKey]
    /// The key whose secret hashes to `secretHash` (revoked or not: the caller decides), read from the primary so a
    /// revocation holds on every replica at once.
    func apiKey(secretHash: String) async throws -> APIKey?
    /// Revokes the key `name` once, with an audit record (event `revoked`, cause `by <actor>`); a revoked key stays
    /// as it was. `nil` when there is no such key.
    func revokeAPIKey(named name: String, by actor: String, now: Date) async throws -> APIKey?
    /// What the write path has done since the store opened (statements, commits, round trips, hops to the writer).
    func writeCounts() -> LedgerWriteCounts
    /// What every event this ledger writes to its outbox is stamped with: a random webhook id, the app it belongs to.
    var outbox: OutboxIdentity { get }
    func close() async throws
}

/// The outcome of `settle`: the decision and the ledger's record of the transaction afterwards.
public struct Settlement: Hashable, Sendable {
    public var decision: Decision
    public var record: LedgerTransaction?
    /// What this settlement made Purser owe Apple (finishing a credit no app will finish, the owner's token).
    public var appleFollowUp: AppleFollowUp?
    /// Whether this settlement credited the transaction (a repeat of a credited one did not): what
    /// `purser_credits_total` counts, and how a decision without a submitter is told from a repeat.
    public var creditedNow: Bool
    /// The SQL statements this settlement ran, reads included (SQLite: its own, inside the writer's batch), for its
    /// span; `nil` where a store runs one statement for a whole batch (PostgreSQL: see `batchSize`).
    public var statements: Int?
    /// How many settlements shared the database transaction and statements that settled this one (PostgreSQL's
    /// batches); `nil` where the store does not say.
    public var batchSize: Int?

    public init(
        decision: Decision, record: LedgerTransaction?, appleFollowUp: AppleFollowUp?, creditedNow: Bool
    ) {
        self.decision = decision
        self.record = record
        self.appleFollowUp = appleFollowUp
        self.creditedNow = creditedNow
    }

    /// What a store answers once it has applied `plan` to the transaction it held (`existing`).
    public init(_ plan: LedgerPlan, existing: LedgerTransaction?) {
        self.init(
            decision: plan.decision, record: plan.written ?? existing, appleFollowUp: .owed(by: plan),
            creditedNow: plan.credits)
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
