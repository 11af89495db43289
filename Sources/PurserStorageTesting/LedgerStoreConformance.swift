import Foundation
import PurserCore
import PurserStorage
import Synchronization
import Testing

/// The behaviour every `LedgerStore` must show, as a library so that every backend (SQLite, PostgreSQL) runs the very
/// same checks: a backend's test suite makes a fresh, migrated store and calls `runAll()`, or single checks.
public struct LedgerStoreConformance: Sendable {
    public let store: any LedgerStore
    let now = Date(timeIntervalSince1970: 1_704_067_200)
    let gold = ProductDefinition(id: "gold60", type: .consumable, grants: Grants(["gold": 60]))

    /// Lowers a user's balance of a currency outside Purser's credits, revokes and restores, as only a backend's
    /// own test can: a `debit` grant row against one of the user's transactions, standing for balances imported from
    /// an earlier ledger or debits Purser does not make itself. `stopsARevokeAtZeroWithoutNegativeBalances` needs it
    /// to meet a balance smaller than a refund (Purser's own entries never take a balance below zero).
    public typealias Debit =
        @Sendable (_ transactionID: String, _ user: UserID, _ currency: String, _ amount: Int64) async throws -> Void
    let debit: Debit?
    /// Runs one SQL statement on the backend's tables, as only its own test can: `checksItsOwnIntegrity` breaks rows
    /// on purpose with it, to see the ledger check find them.
    public typealias Corrupt = @Sendable (_ sql: String) async throws -> Void
    let corrupt: Corrupt?

    public init(store: any LedgerStore, debit: Debit? = nil, corrupt: Corrupt? = nil) {
        self.store = store
        self.debit = debit
        self.corrupt = corrupt
    }

    /// Every check, one after the other, on the same store (each uses its own users, orders and transactions).
    /// `visibilityRounds`: settlements in `readsEverySettlementRightAfterItReturns`.
    public func runAll(visibilityRounds: Int = 400) async throws {
        try await creditsOnceAndRecordsEverything()
        try await settlesConcurrentSubmissionsOfOneTransactionOnce()
        try await keepsRejectedAndUnboundTransactionsWithoutCredit()
        try await refusesDuplicateOrders()
        try await cancelsAWaitingOrderOnceWithAnAuditRecord()
        try await leavesADeliveredOrderAsItIs()
        try await creditsATokenBoundTransactionOfACancelledOrderToItsOwner()
        try await doesNotBindAHintedTransactionToACancelledOrder()
        try await tellsWhichNotificationsWereProcessed()
        try await readsEverySettlementRightAfterItReturns(rounds: visibilityRounds)
        try await listsEachAccountsLatestTransactionAsItsHistoryAnchor()
        try await neverGrantsOneLeaseToTwoHolders()
        try await renewsALeaseForItsHolder()
        try await letsAnotherHolderTakeAnExpiredLease()
        try await freesAReleasedLease()
        try await keepsTheFirstTraceOfATransaction()
        try await writesAWebhookEventWithEveryCreditRevokeAndRestore()
        try await claimsEachWebhookDeliveryForOneHolderAtATime()
        try await retriesAndDeadLettersWebhookDeliveries()
        try await releasesAnUnpostedWebhookClaim()
        try await replaysAWebhookEventWithAnAuditRecord()
        try await claimsAUsersWebhookDeliveriesInSequenceOnAnOrderedEndpoint()
        try await skipsEventsAnOrderedEndpointDoesNotTake()
        try await countsWhatWaitsWithItsOldest()
        try await listsTheUnboundQueueAndCandidateOrders()
        try await countsActivityAndFindsATransactionsDeliveries()
        try await keepsAndFindsTheAppTransactionID()
        try await listsWhatIsOwedToAppleUntilRecorded()
        try await revokesAProratedShareCumulativelyAndRestoresExactlyIt()
        try await roundsTheCumulativeShareDownNotEachRefund()
        try await stopsARevokeAtZeroWithoutNegativeBalances()
        try await takesBackRefundsAppleMadeBeforeOrBesideTheCredit()
        try await listsAUsersPurchasesAndWhatTheyOwn()
        try await creditsARefusedTransactionOnlyWhenSupportOverrides()
        try await appliesSpendsAndDepositsOnceWithinTheBalance()
        try await listsAWalletsHistoryInPages()
        try await sumsARefundsRowsOfOneMomentInTheHistory()
        try await reservesWithHoldsAndResolvesEachOnce()
        try await prunesOnlyWhatIsKeptForAWhile()
        try await erasesAUserEverywhereAndKeepsTheMoney()
        try await drawsTheDashboardsTimeline()
        try await keepsAPIKeysAndRevokesThemOnce()
        try await keepsConsoleOperatorsAndBumpsTheirGeneration()
        try await sharesFailedSignInsInTheLedger()
        try await keepsGrantRequestsUntilASecondOperatorDecides()
        try await recordsTheAppItBelongsTo()
        try await keepsTheDaysGrantLimitUnderConcurrentGrants()
        try await endsConsoleSessionsForGood()
        // Last: it finds nothing in everything the checks above wrote, then breaks rows on purpose.
        try await checksItsOwnIntegrity()
    }

    func transaction(_ id: String, token: OrderID?) -> AppleTransaction {
        AppleTransaction(
            transactionID: id, originalTransactionID: id, bundleID: "b", productID: "gold60", type: "Consumable",
            quantity: 1, purchaseDate: now, appAccountToken: token, environment: .sandbox)
    }

    func newOrder(_ user: UserID) async throws -> Order {
        let order = Order(id: .random(), userID: user, productID: "gold60", quantity: 1, createdAt: now)
        try await store.createOrder(order)
        return order
    }

    public func creditsOnceAndRecordsEverything() async throws {
        let order = try await newOrder("alice")
        let submission = Submission(
            transaction: transaction("t1", token: order.id), assessment: .creditable(gold),
            source: .client("alice"))
        let first = try await store.settle(submission, now: now)
        #expect(first.decision == .delivered)
        let second = try await store.settle(submission, now: now)
        #expect(second.decision == .alreadyDelivered)
        var byBob = submission
        byBob.source = .client("bob")
        #expect(try await store.settle(byBob, now: now).decision == .deliveredToOtherAccount)

        #expect(try await store.balances(of: "alice") == ["gold": 60])
        #expect(try await store.balances(of: "bob") == [:])
        let stored = try #require(try await store.transaction("t1"))
        #expect(stored.state == .credited)
        #expect(stored.ownerID == "alice")
        #expect(stored.grants == Grants(["gold": 60]))
        #expect(stored.transaction == submission.transaction)
        let fulfilled = try #require(try await store.order(order.id))
        #expect(fulfilled.state == .delivered)
        #expect(fulfilled.transactionID == "t1")
        #expect(try await store.auditTrail(of: "t1").map(\.event) == ["credited"])
        #expect(try await store.auditTrail(of: order.id.description).map(\.event) == ["delivered"])
    }

    public func settlesConcurrentSubmissionsOfOneTransactionOnce() async throws {
        let order = try await newOrder("carol")
        let submission = Submission(
            transaction: transaction("t-race", token: order.id), assessment: .creditable(gold),
            source: .client("carol"))
        let decisions = try await withThrowingTaskGroup(of: Decision.self) { group in
            for _ in 0..<50 { group.addTask { try await store.settle(submission, now: now).decision } }
            return try await group.reduce(into: [Decision]()) { $0.append($1) }
        }
        #expect(decisions.filter { $0 == .delivered }.count == 1)
        #expect(decisions.filter { $0 == .alreadyDelivered }.count == 49)
        #expect(try await store.balances(of: "carol") == ["gold": 60])
    }

    public func keepsRejectedAndUnboundTransactionsWithoutCredit() async throws {
        let rejected = Submission(
            transaction: transaction("t-bad", token: nil),
            assessment: .rejected(.unknownProduct("gold60")), source: .client("dave"))
        #expect(try await store.settle(rejected, now: now).decision == .rejected(.unknownProduct("gold60")))
        #expect(try await store.transaction("t-bad")?.rejection?.code == "unknown_product")

        let unbound = Submission(
            transaction: transaction("t-free", token: nil), assessment: .creditable(gold), source: .client("dave"))
        #expect(try await store.settle(unbound, now: now).decision == .pending(.unbound))
        #expect(try await store.balances(of: "dave") == [:])

        let order = try await newOrder("dave")
        var hinted = unbound
        hinted.orderHint = order.id
        #expect(try await store.settle(hinted, now: now).decision == .delivered)
        #expect(try await store.balances(of: "dave") == ["gold": 60])
        #expect(try await store.auditTrail(of: "t-free").map(\.event) == ["recorded_unbound", "credited"])
    }

    public func refusesDuplicateOrders() async throws {
        let order = try await newOrder("erin")
        await #expect(throws: StorageError.self) { try await store.createOrder(order) }
    }

    public func cancelsAWaitingOrderOnceWithAnAuditRecord() async throws {
        let order = try await newOrder("frank")
        let later = now.addingTimeInterval(30)
        let outcome = try await store.cancelOrder(order.id, by: "frank", reason: "payment_cancelled", now: later)
        var expected = order
        expected.state = .cancelled
        expected.updatedAt = later
        #expect(outcome == .cancelled(expected))
        #expect(try await store.order(order.id) == expected)
        let again = try await store.cancelOrder(
            order.id, by: "frank", reason: "store_error", now: later.addingTimeInterval(5))
        #expect(again == .alreadyCancelled(expected), "a repeated cancel changes nothing")
        #expect(
            try await store.auditTrail(of: order.id.description) == [
                AuditEvent(
                    at: later, subject: .order, subjectID: order.id.description, event: "cancelled", cause: "client",
                    detail: "payment_cancelled")
            ])

        let other = try await newOrder("frank")
        #expect(try await store.cancelOrder(other.id, by: "mallory", reason: "cancelled", now: later) == .notFound)
        #expect(try await store.cancelOrder(.random(), by: "frank", reason: "cancelled", now: later) == .notFound)
        #expect(try await store.order(other.id)?.state == .created)
        #expect(try await store.auditTrail(of: other.id.description).isEmpty)
    }

    public func leavesADeliveredOrderAsItIs() async throws {
        let order = try await newOrder("grace")
        let submission = Submission(
            transaction: transaction("t-grace", token: order.id), assessment: .creditable(gold),
            source: .client("grace"))
        #expect(try await store.settle(submission, now: now).decision == .delivered)
        let outcome = try await store.cancelOrder(order.id, by: "grace", reason: "cancelled", now: now)
        guard case .delivered(let delivered) = outcome, delivered.state == .delivered else {
            Issue.record("expected .delivered, got \(outcome)")
            return
        }
        #expect(try await store.order(order.id)?.state == .delivered)
        #expect(try await store.order(order.id)?.transactionID == "t-grace")
        #expect(try await store.auditTrail(of: order.id.description).map(\.event) == ["delivered"])
        #expect(try await store.balances(of: "grace") == ["gold": 60])
    }

    /// Apple's signed token wins over the app's report: the charge happened, so the order's owner is credited.
    public func creditsATokenBoundTransactionOfACancelledOrderToItsOwner() async throws {
        let order = try await newOrder("heidi")
        _ = try await store.cancelOrder(order.id, by: "heidi", reason: "store_error", now: now)
        let submission = Submission(
            transaction: transaction("t-heidi", token: order.id), assessment: .creditable(gold),
            source: .client("heidi"))
        #expect(try await store.settle(submission, now: now).decision == .delivered)
        #expect(try await store.settle(submission, now: now).decision == .alreadyDelivered)
        let stored = try #require(try await store.transaction("t-heidi"))
        #expect(stored.state == .credited)
        #expect(stored.ownerID == "heidi")
        #expect(stored.orderID == order.id)
        #expect(try await store.balances(of: "heidi") == ["gold": 60])
        let delivered = try #require(try await store.order(order.id))
        #expect(delivered.state == .delivered, "the charge delivers the order the app had cancelled")
        #expect(delivered.transactionID == "t-heidi")
    }

    /// Without a token, only a waiting order may take a transaction by hint: a cancelled one leaves it unbound.
    public func doesNotBindAHintedTransactionToACancelledOrder() async throws {
        let order = try await newOrder("ivan")
        _ = try await store.cancelOrder(order.id, by: "ivan", reason: "cancelled", now: now)
        let hinted = Submission(
            transaction: transaction("t-ivan", token: nil), assessment: .creditable(gold),
            source: .client("ivan"), orderHint: order.id)
        #expect(try await store.settle(hinted, now: now).decision == .pending(.unbound))
        #expect(try await store.transaction("t-ivan")?.state == .unbound)
        #expect(try await store.balances(of: "ivan") == [:])
        #expect(try await store.order(order.id)?.state == .cancelled)
    }
}

extension LedgerStoreConformance {
    /// Only notifications whose processing finished count as processed; unknown UUIDs are simply absent.
    public func tellsWhichNotificationsWereProcessed() async throws {
        for uuid in ["n-done", "n-recorded"] {
            _ = try await store.recordNotification(
                NotificationRecord(
                    uuid: uuid, type: "ONE_TIME_CHARGE", subtype: nil, transactionID: nil, environment: "Sandbox",
                    signedDate: now, receivedAt: now))
        }
        try await store.markNotificationProcessed(uuid: "n-done", outcome: "credited", at: now)
        let many = (0..<1_200).map { "n-unknown-\($0)" } + ["n-done", "n-recorded"]
        #expect(try await store.processedNotifications(among: many) == ["n-done"])
        #expect(try await store.processedNotifications(among: []) == [])
    }

    /// A settlement that returned is visible to the next read, however busy the readers are. (A shared SQLite read
    /// connection whose statements overlap keeps one snapshot open and answers from the past.)
    public func readsEverySettlementRightAfterItReturns(rounds: Int = 400) async throws {
        let stop = ManagedAtomicFlag()
        let missed = try await withThrowingTaskGroup(of: Int.self) { group in
            let seed = try await newOrder("erin")
            _ = try await store.settle(
                Submission(
                    transaction: transaction("t-visible-seed", token: seed.id),
                    assessment: .creditable(gold), source: .client("erin")), now: now)
            for _ in 0..<6 {
                group.addTask {
                    while !stop.isSet {
                        _ = try await store.transaction("t-visible-seed")
                        _ = try await store.historyAnchors()
                    }
                    return 0
                }
            }
            group.addTask {
                defer { stop.set() }
                var missed = 0
                for round in 0..<rounds {
                    let order = try await newOrder(UserID(rawValue: "erin-\(round % 100)"))
                    let id = "t-visible-\(round)"
                    let submission = Submission(
                        transaction: transaction(id, token: order.id),
                        assessment: .creditable(gold), source: .client(order.userID))
                    _ = try await store.settle(submission, now: now)
                    if try await store.transaction(id)?.state != .credited { missed += 1 }
                }
                return missed
            }
            return try await group.reduce(0, +)
        }
        #expect(missed == 0, "\(missed) of \(rounds) settlements were invisible to the read right after them")
    }
}

/// A flag the writer raises to stop the readers.
private final class ManagedAtomicFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
