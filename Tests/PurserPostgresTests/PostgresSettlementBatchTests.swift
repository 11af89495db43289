import Foundation
import PurserCore
import Testing

@testable import PurserStorage

/// Settlements on PostgreSQL are group-committed: the submissions waiting at one moment share a database transaction,
/// and one the database refuses sinks no other.
@Suite(.enabled(if: PostgresTestDatabase.isConfigured, PostgresTestDatabase.howToRun))
struct PostgresSettlementBatchTests {
    static let gold = ProductDefinition(id: "gold60", type: .consumable, grants: Grants(["gold": 60]))
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    static func purchase(_ id: String, token: OrderID?) -> AppleTransaction {
        AppleTransaction(
            transactionID: id, originalTransactionID: id, bundleID: "b", productID: "gold60", type: "Consumable",
            quantity: 1, purchaseDate: now, appAccountToken: token, environment: .sandbox)
    }

    /// Forty purchases settled at once, twice: the first forty are credited in fewer commits than settlements; in the
    /// second, one has a transaction id PostgreSQL cannot store (a NUL byte), which fails alone and leaves nothing,
    /// while the others are credited.
    @Test func batchesSettlementsAndARefusedOneSinksNoOther() async throws {
        try await PostgresTestDatabase.withFreshDatabase { configuration, _ in
            try await PostgresTestDatabase.withStores(1, configuration) { stores in
                let store = stores[0]
                try await store.migrate()
                let before = store.writeCounts()
                let first = try await Self.settle(40, round: 1, refusing: nil, on: store)
                #expect(first.values.allSatisfy { $0 == .delivered })
                let counts = store.writeCounts().since(before)
                #expect(counts.settlements == 40)
                #expect(counts.commits < 40, "settlements shared commits: \(counts)")

                let second = try await Self.settle(40, round: 2, refusing: 17, on: store)
                #expect(second[17] == .some(nil), "the refused settlement failed")
                for index in 0..<40 where index != 17 {
                    #expect(second[index] == .some(.delivered), "purchase \(index)")
                }
                #expect(try await store.statistics().creditedTransactions == 79)
                for buyer in 0..<5 {
                    let bought = 8 + (0..<40).filter { $0 % 5 == buyer && $0 != 17 }.count
                    #expect(
                        try await store.balances(of: UserID(rawValue: "buyer-\(buyer)")) == ["gold": 60 * Int64(bought)]
                    )
                }
            }
        }
    }

    /// `count` orders, then their purchases settled all at once; the decisions by index (nil: the settlement failed).
    /// The purchase at `refusing` has a transaction id with a NUL byte.
    static func settle(_ count: Int, round: Int, refusing: Int?, on store: PostgresLedgerStore) async throws
        -> [Int: Decision?]
    {
        var orders: [Order] = []
        for index in 0..<count {
            let order = Order(
                id: .random(), userID: UserID(rawValue: "buyer-\(index % 5)"), productID: "gold60", quantity: 1,
                createdAt: now)
            try await store.createOrder(order)
            orders.append(order)
        }
        return await withTaskGroup(of: (Int, Decision?).self) { group in
            for (index, order) in orders.enumerated() {
                group.addTask {
                    let id = index == refusing ? "t-bad\u{0}" : "t-\(round)-\(index)"
                    let submission = Submission(
                        transaction: purchase(id, token: order.id), assessment: .creditable(gold),
                        source: .client(order.userID))
                    return (index, try? await store.settle(submission, now: now).decision)
                }
            }
            return await group.reduce(into: [Int: Decision?]()) { $0[$1.0] = $1.1 }
        }
    }
}
