import Foundation
import PurserCore
import PurserStorage
import PurserStorageTesting
import Testing

/// Two replicas refunding two purchases of one user at the same moment, balances kept at zero: the owner's advisory
/// lock makes the second revoke see what the first took, so together they never take more than the balance.
@Suite(.enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.howToRun))
struct PostgresRefundRaceTests {
    static let now = Date(timeIntervalSince1970: 1_704_067_200)
    static let gold = ProductDefinition(id: "gold60", type: .consumable, grants: Grants(["gold": 60]))

    static func credit(_ id: String, to user: UserID, on store: PostgresLedgerStore) async throws {
        let order = Order(id: .random(), userID: user, productID: "gold60", quantity: 1, createdAt: now)
        try await store.createOrder(order)
        let transaction = AppleTransaction(
            transactionID: id, originalTransactionID: id, bundleID: "b", productID: "gold60", type: "Consumable",
            quantity: 1, purchaseDate: now, appAccountToken: order.id, environment: .sandbox)
        let submission = Submission(transaction: transaction, assessment: .creditable(gold), source: .client(user))
        #expect(try await store.settle(submission, now: now).decision == .delivered)
    }

    @Test func twoReplicasRefundingOneUsersPurchasesStopAtZeroTogether() async throws {
        try await PostgresTestDatabase.withFreshDatabase { configuration, _ in
            try await PostgresTestDatabase.withStores(2, configuration) { stores in
                try await stores[0].migrate()
                let debit = PostgresLedgerStoreTests.debit(stores[0])
                for round in 0..<8 {
                    let user = UserID(rawValue: "racer-\(round)")
                    let ids = ["t-race-\(round)-a", "t-race-\(round)-b"]
                    for id in ids { try await Self.credit(id, to: user, on: stores[0]) }
                    try await debit(ids[0], user, "gold", 90)  // 120 credited, 30 left
                    let outcomes = try await withThrowingTaskGroup(of: RefundOutcome.self) { group in
                        for (index, id) in ids.enumerated() {
                            group.addTask {
                                try await stores[index].revoke(
                                    Revocation(
                                        transactionID: id, date: Self.now, type: .refundFull, cause: "race",
                                        allowNegativeBalance: false),
                                    now: Self.now)
                            }
                        }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                    var (taken, short): (Int64, Int64) = (0, 0)
                    for case .applied(_, let grants, let shortfall, _) in outcomes {
                        taken += grants.amounts["gold"] ?? 0
                        short += shortfall.amounts["gold"] ?? 0
                    }
                    #expect(taken == 30 && short == 90, "round \(round): \(outcomes)")
                    #expect(try await stores[1].balances(of: user) == ["gold": 0], "round \(round)")
                }
            }
        }
    }
}
