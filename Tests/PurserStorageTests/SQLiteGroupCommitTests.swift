import Foundation
import Logging
import PurserCore
import SQLiteNIO
import Testing

@testable import PurserStorage

/// Group commit in the SQLite ledger: writes waiting for the writer share one transaction, each in its own savepoint.
@Suite struct SQLiteGroupCommitTests {
    static let gold = Product(id: "gold60", type: .consumable, grants: Grants(["gold": 60]))

    /// Inserts an order row the way `createOrder` does, straight on the writer inside the batch.
    static func insertOrder(_ id: OrderID, user: String, on writer: SQLiteConnection) async throws {
        _ = try await writer.query(
            """
            INSERT INTO orders (id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at)
            VALUES (?, ?, 'gold60', 1, 'created', NULL, 0, 0)
            """, [.text(id.description), .text(user)])
    }

    /// The middle write of a batch writes a row and then fails; it alone is rolled back: its own row is gone, the
    /// writes before and after it are committed (found again after reopening the file), and only it gets an error.
    @Test func aFailingWriteSinksNoOtherInItsBatch() async throws {
        try await SQLiteLedgerStoreTests.withStore { store, path in
            let (first, doomed, last) = (OrderID.random(), OrderID.random(), OrderID.random())
            let batches = store.groupCommit.batchesCommitted
            let outcomes = try await store.groupCommit.commitTogether([
                { writer in try await Self.insertOrder(first, user: "alice", on: writer) },
                { writer in
                    try await Self.insertOrder(doomed, user: "bob", on: writer)
                    try await Self.insertOrder(first, user: "bob", on: writer)  // the primary key is taken
                    return ()
                },
                { writer in try await Self.insertOrder(last, user: "carol", on: writer) },
            ])
            #expect(outcomes.map { (try? $0.get()) != nil } == [true, false, true])
            #expect(store.groupCommit.batchesCommitted == batches + 1)

            let reopened = try await SQLiteLedgerStore.open(path: path, logger: Logger(label: "test"))
            #expect(try await reopened.order(first)?.userID == "alice")
            #expect(try await reopened.order(doomed) == nil)
            #expect(try await reopened.order(last)?.userID == "carol")
            try await reopened.close()
        }
    }

    /// Many orders and settlements at once, a duplicate order among them: they are committed in fewer transactions
    /// than writes, the duplicate alone fails, and every caller's answer is already durable when it arrives: another
    /// store on the file reads it at once, and it is all there after reopening.
    @Test func everyAnswerIsDurableWhenItArrives() async throws {
        try await SQLiteLedgerStoreTests.withStore { store, path in
            let other = try await SQLiteLedgerStore.open(path: path, logger: Logger(label: "test"))
            let now = Date(timeIntervalSince1970: 1_700_000_000)
            let taken = Order(id: .random(), userID: "zoe", productID: "gold60", quantity: 1, createdAt: now)
            try await store.createOrder(taken)
            let batches = store.groupCommit.batchesCommitted
            let purchases = 200
            async let duplicateRefused = Self.refusesDuplicate(taken, store: store)
            let unseen = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<purchases {
                    group.addTask { try await Self.buyAndCheck(index, store: store, other: other, now: now) }
                }
                return try await group.reduce(0, +)
            }
            #expect(try await duplicateRefused)
            #expect(unseen == 0)
            #expect(store.groupCommit.batchesCommitted - batches < 2 * purchases)
            try await other.close()

            let reopened = try await SQLiteLedgerStore.open(path: path, logger: Logger(label: "test"))
            #expect(try await reopened.statistics().creditedTransactions == purchases)
            for user in 0..<10 {
                #expect(try await reopened.balances(of: UserID(rawValue: "user-\(user)")) == ["gold": 60 * 20])
            }
            try await reopened.close()
        }
    }

    static func refusesDuplicate(_ order: Order, store: SQLiteLedgerStore) async throws -> Bool {
        do {
            try await store.createOrder(order)
            return false
        } catch let error as StorageError where error.code == .duplicateOrder {
            return true
        }
    }

    /// One order and its settlement; returns how many of the two answers `other` could not read right away (0).
    static func buyAndCheck(_ index: Int, store: SQLiteLedgerStore, other: SQLiteLedgerStore, now: Date)
        async throws -> Int
    {
        let user = UserID(rawValue: "user-\(index % 10)")
        let order = Order(id: .random(), userID: user, productID: "gold60", quantity: 1, createdAt: now)
        try await store.createOrder(order)
        var unseen = try await other.order(order.id) == nil ? 1 : 0
        let transaction = AppleTransaction(
            transactionID: "t\(index)", originalTransactionID: "t\(index)", bundleID: "b", productID: "gold60",
            type: "Consumable", quantity: 1, purchaseDate: now, appAccountToken: order.id, environment: .sandbox)
        let settlement = try await store.settle(
            Submission(transaction: transaction, assessment: .creditable(gold), source: .client(user)), now: now)
        #expect(settlement.decision == .delivered)
        if try await other.transaction("t\(index)")?.state != .credited { unseen += 1 }
        return unseen
    }
}
