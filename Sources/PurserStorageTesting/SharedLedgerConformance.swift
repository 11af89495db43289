import Foundation
import PurserCore
import PurserStorage
import Testing

/// What only several writers can break: several stores (separate connections or pools, as replicas have) on one
/// database, all at the same moment. A backend's test opens the stores on one fresh, not yet migrated database and
/// calls `runAll()`, which migrates them together first.
public struct SharedLedgerConformance: Sendable {
    public let stores: [any LedgerStore]
    let now = Date(timeIntervalSince1970: 1_704_067_200)
    let gold = ProductDefinition(id: "gold60", type: .consumable, grants: Grants(["gold": 60]))

    /// `stores`: at least two stores on the same database.
    public init(stores: [any LedgerStore]) {
        precondition(stores.count >= 2, "the shared checks need two stores or more")
        self.stores = stores
    }

    /// Every check, the migration first (it needs the database empty).
    public func runAll(rounds: Int = 20) async throws {
        try await migratesOnceWhenStartedTogether()
        try await settlesOneTransactionOnceThroughEveryStore(rounds: rounds)
        try await answersTheLoserOfARaceAsASecondSubmission(rounds: rounds)
        try await bindsAnOrderOnceWhenTwoTransactionsClaimIt(rounds: rounds)
        try await grantsALeaseToOneStoreAtATime()
        try await numbersOneUsersWebhookEventsAcrossStores()
        try await claimsOneUsersEventsInSequenceAcrossStores()
        try await expiresEachHoldOnceAcrossStores()
        try await sharesTheConsolesOperatorsAndFailuresAcrossStores()
        try await sharesGrantLimitsAndEndedSessionsAcrossStores()
    }

    /// Replicas sweeping expired holds at the same moment expire each once: one audit record each, no more.
    public func expiresEachHoldOnceAcrossStores() async throws {
        _ = try await stores[0].applyWalletTransaction(
            .init(id: "w-ivo-0", userID: "ivo", amounts: ["gold": 100], reason: "r", cause: "admin"), now: now)
        for index in 0..<20 {
            _ = try await stores[index % stores.count].placeHold(
                .init(
                    id: "h-ivo-\(index)", userID: "ivo", amounts: ["gold": 1], reason: "r", expiresInSeconds: 1,
                    cause: "admin"), now: now)
        }
        let swept = try await withThrowingTaskGroup(of: Int.self) { group in
            for store in stores { group.addTask { try await store.expireHolds(now: now + 5, limit: 7) } }
            for store in stores { group.addTask { try await store.expireHolds(now: now + 5, limit: 100) } }
            return try await group.reduce(0, +)
        }
        #expect(swept == 20)
        for index in 0..<20 {
            #expect(try await stores[1].auditTrail(of: "h-ivo-\(index)").map(\.event) == ["held", "expired"])
        }
    }

    /// Replicas that start together all migrate, and every migration applies once: a second application would fail
    /// (its tables exist), so every store's `migrate()` must succeed, and again afterwards.
    public func migratesOnceWhenStartedTogether() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for store in stores { group.addTask { try await store.migrate() } }
            try await group.waitForAll()
        }
        try await stores[0].migrate()
        #expect(try await stores[1].statistics() == LedgerStatistics.empty)
    }

    /// One transaction submitted by its owner through every store at once, several times each: exactly one answer
    /// is `delivered`, every other `alreadyDelivered`, never an error, and the ledger credits once.
    public func settlesOneTransactionOnceThroughEveryStore(rounds: Int, perStore: Int = 3) async throws {
        for round in 0..<rounds {
            let user = UserID(rawValue: "shared-owner-\(round)")
            let order = Order(id: .random(), userID: user, productID: "gold60", quantity: 1, createdAt: now)
            try await stores[round % stores.count].createOrder(order)
            let submission = Submission(
                transaction: transaction("t-shared-\(round)", token: order.id), assessment: .creditable(gold),
                source: .client(user))
            let decisions = try await settleAtOnce(Array(repeating: submission, count: perStore * stores.count))
            #expect(decisions.filter { $0 == .delivered }.count == 1, "round \(round): \(decisions)")
            #expect(decisions.filter { $0 == .alreadyDelivered }.count == decisions.count - 1, "round \(round)")
            #expect(try await stores[0].balances(of: user) == ["gold": 60])
            #expect(try await stores[1].auditTrail(of: "t-shared-\(round)").map(\.event) == ["credited"])
            #expect(try await stores[0].order(order.id)?.transactionID == "t-shared-\(round)")
        }
    }

    /// Two submissions of one transaction that no common order row serialises: one without an order, recorded
    /// unbound, and one hinting the owner's waiting order, which binds it. Whichever insert loses must not fail: it
    /// answers what it would have answered arriving second. The hinted one is `delivered` either way; the other is
    /// `pending(.unbound)` when first and `alreadyDelivered` when second; the ledger credits once.
    public func answersTheLoserOfARaceAsASecondSubmission(rounds: Int) async throws {
        for round in 0..<rounds {
            let user = UserID(rawValue: "shared-racer-\(round)")
            let order = Order(id: .random(), userID: user, productID: "gold60", quantity: 1, createdAt: now)
            try await stores[0].createOrder(order)
            let id = "t-loser-\(round)"
            let bare = Submission(
                transaction: transaction(id, token: nil), assessment: .creditable(gold), source: .client(user))
            var hinted = bare
            hinted.orderHint = order.id
            let decisions = try await settleAtOnce([bare, hinted])
            #expect(decisions[1] == .delivered, "round \(round): the hinted submission binds: \(decisions)")
            #expect(
                [Decision.pending(.unbound), .alreadyDelivered].contains(decisions[0]),
                "round \(round): the bare submission: \(decisions)")
            let events = try await stores[1].auditTrail(of: id).map(\.event)
            let expected = decisions[0] == .alreadyDelivered ? ["credited"] : ["recorded_unbound", "credited"]
            #expect(events == expected, "round \(round): \(decisions)")
            #expect(try await stores[0].balances(of: user) == ["gold": 60])
        }
    }

    /// Two different transactions hinting one waiting order at once: the order takes exactly one of them; the other
    /// stays unbound, uncredited.
    public func bindsAnOrderOnceWhenTwoTransactionsClaimIt(rounds: Int) async throws {
        for round in 0..<rounds {
            let user = UserID(rawValue: "shared-binder-\(round)")
            let order = Order(id: .random(), userID: user, productID: "gold60", quantity: 1, createdAt: now)
            try await stores[1].createOrder(order)
            let ids = ["t-bind-\(round)-a", "t-bind-\(round)-b"]
            let submissions = ids.map {
                Submission(
                    transaction: transaction($0, token: nil), assessment: .creditable(gold), source: .client(user),
                    orderHint: order.id)
            }
            let decisions = try await settleAtOnce(submissions)
            #expect(decisions.filter { $0 == .delivered }.count == 1, "round \(round): \(decisions)")
            #expect(decisions.filter { $0 == .pending(.unbound) }.count == 1, "round \(round): \(decisions)")
            let bound = ids[decisions.firstIndex(of: .delivered) ?? 0]
            #expect(try await stores[0].order(order.id)?.transactionID == bound, "round \(round)")
            #expect(try await stores[0].auditTrail(of: order.id.description).map(\.event) == ["delivered"])
            #expect(try await stores[1].balances(of: user) == ["gold": 60])
        }
    }

    /// Holders asking through every store at once for one lease: exactly one gets it; the others get it only after it
    /// expires.
    public func grantsALeaseToOneStoreAtATime() async throws {
        let until = now.addingTimeInterval(30)
        let askers = (0..<(8 * stores.count)).map { (store: stores[$0 % stores.count], holder: "replica-\($0)") }
        let winners = try await withThrowingTaskGroup(of: String?.self) { group in
            for asker in askers {
                group.addTask {
                    try await asker.store.acquireLease("shared-job", holder: asker.holder, until: until, now: now)
                        ? asker.holder : nil
                }
            }
            return try await group.reduce(into: [String]()) { if let holder = $1 { $0.append(holder) } }
        }
        #expect(winners.count == 1, "holders at once: \(winners)")
        let other = askers.first { !winners.contains($0.holder) }?.holder ?? "replica-x"
        #expect(try await stores[1].acquireLease("shared-job", holder: other, until: until + 30, now: until))
        #expect(
            try await !stores[0].acquireLease("shared-job", holder: winners.first ?? "", until: until + 60, now: until))
    }

    /// Settles `submissions` at the same moment, the i-th through store i (modulo the count); the decisions in order.
    func settleAtOnce(_ submissions: [Submission]) async throws -> [Decision] {
        try await withThrowingTaskGroup(of: (Int, Decision).self) { group in
            for (index, submission) in submissions.enumerated() {
                let store = stores[index % stores.count]
                group.addTask { (index, try await store.settle(submission, now: now).decision) }
            }
            var decisions = [Decision?](repeating: nil, count: submissions.count)
            for try await (index, decision) in group { decisions[index] = decision }
            return decisions.compactMap { $0 }
        }
    }

    func transaction(_ id: String, token: OrderID?) -> AppleTransaction {
        AppleTransaction(
            transactionID: id, originalTransactionID: id, bundleID: "b", productID: "gold60", type: "Consumable",
            quantity: 1, purchaseDate: now, appAccountToken: token, environment: .sandbox)
    }
}

extension LedgerStatistics {
    static let empty = LedgerStatistics(orders: 0, transactions: 0, creditedTransactions: 0, grants: 0, auditEvents: 0)
}
