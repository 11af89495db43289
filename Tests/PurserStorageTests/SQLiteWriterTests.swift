import Foundation
import Logging
import PurserCore
import Synchronization
import Testing

@testable import PurserStorage

/// The SQLite ledger's writer: writes waiting for it share one transaction, each in its own savepoint, on the writer's
/// own thread; reads run beside it on their own connections.
@Suite struct SQLiteWriterTests {
    static let gold = ProductDefinition(id: "gold60", type: .consumable, grants: Grants(["gold": 60]))

    /// Inserts an order row the way `createOrder` does, straight on the writer inside the batch.
    static func insertOrder(_ id: OrderID, user: String, on database: SQLiteDatabase) throws {
        try database.query(
            """
            INSERT INTO orders (id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at)
            VALUES (?, ?, 'gold60', 1, 'created', NULL, 0, 0)
            """, [.text(id.description), .text(user)])
    }

    /// The writer's thread held by a write running alone, until `release()`: the writes queued meanwhile run
    /// together in the next batch.
    final class Hold: Sendable {
        private let started = DispatchSemaphore(value: 0)
        private let gate = DispatchSemaphore(value: 0)
        private let task: Task<Void, any Error>

        init(_ writer: SQLiteWriter) async {
            let (started, gate) = (started, gate)
            task = Task {
                try await writer.alone { _ in
                    started.signal()
                    gate.wait()
                }
            }
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    started.wait()
                    continuation.resume()
                }
            }
        }

        func release() async throws {
            gate.signal()
            try await task.value
        }
    }

    /// What `body` returned or threw.
    static func outcome(_ body: () async throws -> Void) async -> Result<Void, any Error> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    /// Waits until `count` writes are queued behind the writer's current work.
    static func waitUntilQueued(_ count: Int, on writer: SQLiteWriter) async throws {
        for _ in 0..<500 where writer.waitingCount < count { try await Task.sleep(for: .milliseconds(2)) }
        #expect(writer.waitingCount == count)
    }

    /// The middle write of a batch writes a row and then fails; it alone is rolled back: its own row is gone, the
    /// writes before and after it are committed (found again after reopening the file), and only it gets an error.
    @Test func aFailingWriteSinksNoOtherInItsBatch() async throws {
        try await SQLiteLedgerStoreTests.withStore { store, path in
            let (first, doomed, last) = (OrderID.random(), OrderID.random(), OrderID.random())
            let commits = store.writer.counts.commits
            let hold = await Hold(store.writer)
            async let a = Self.outcome { try await store.write { try Self.insertOrder(first, user: "alice", on: $0) } }
            try await Self.waitUntilQueued(1, on: store.writer)
            async let b = Self.outcome {
                try await store.write { database in
                    try Self.insertOrder(doomed, user: "bob", on: database)
                    try Self.insertOrder(first, user: "bob", on: database)  // the primary key is taken
                }
            }
            try await Self.waitUntilQueued(2, on: store.writer)
            async let c = Self.outcome { try await store.write { try Self.insertOrder(last, user: "carol", on: $0) } }
            try await Self.waitUntilQueued(3, on: store.writer)
            try await hold.release()
            let outcomes = await [a, b, c]
            #expect(outcomes.map { (try? $0.get()) != nil } == [true, false, true])
            #expect(store.writer.counts.commits == commits + 1, "one batch, one commit")

            let reopened = try await SQLiteLedgerStore.open(path: path, logger: Logger(label: "test"))
            #expect(try await reopened.order(first)?.userID == "alice")
            #expect(try await reopened.order(doomed) == nil)
            #expect(try await reopened.order(last)?.userID == "carol")
            try await reopened.close()
        }
    }

    /// While the writer's thread is busy with a long write, reads still answer: they have connections and threads of
    /// their own, and see what was committed before.
    @Test func readsDoNotWaitBehindTheWriter() async throws {
        try await SQLiteLedgerStoreTests.withStore { store, _ in
            let order = Order(id: .random(), userID: "alice", productID: "gold60", quantity: 1, createdAt: Date())
            try await store.createOrder(order)
            let hold = await Hold(store.writer)
            async let queued: Void = store.createOrder(
                Order(id: .random(), userID: "bob", productID: "gold60", quantity: 1, createdAt: Date()))
            try await Self.waitUntilQueued(1, on: store.writer)
            for _ in 0..<20 {
                #expect(try await store.order(order.id)?.userID == "alice")
                #expect(try await store.statistics().orders == 1)
            }
            try await hold.release()
            try await queued
            #expect(try await store.statistics().orders == 2)
        }
    }

    /// The write connection is in WAL mode with `synchronous=FULL` (2) and keeps temporary data in memory (2).
    @Test func theWriterIsDurable() async throws {
        try await SQLiteLedgerStoreTests.withStore { store, _ in
            let settings = try await store.writer.alone { database in
                try ["journal_mode", "synchronous", "temp_store"].map {
                    try database.query("PRAGMA \($0)").first?.values.first
                }
            }
            #expect(settings == [.text("wal"), .integer(2), .integer(2)])
        }
    }

    /// Many orders and settlements at once, a duplicate order among them: they are committed in fewer transactions
    /// than writes, the duplicate alone fails, every caller's answer is already durable when it arrives (another
    /// store on the file reads it at once, and it is all there after reopening), and a settlement's statements are
    /// prepared once: the writer's wake-ups and commits are fewer than the writes.
    @Test func everyAnswerIsDurableWhenItArrives() async throws {
        try await SQLiteLedgerStoreTests.withStore { store, path in
            let other = try await SQLiteLedgerStore.open(path: path, logger: Logger(label: "test"))
            let now = Date(timeIntervalSince1970: 1_700_000_000)
            let taken = Order(id: .random(), userID: "zoe", productID: "gold60", quantity: 1, createdAt: now)
            try await store.createOrder(taken)
            let before = store.writer.counts
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
            let after = store.writer.counts
            #expect(after.writes - before.writes == 2 * purchases + 1)
            #expect(after.commits - before.commits < 2 * purchases)
            #expect(after.wakeUps - before.wakeUps <= after.commits - before.commits + 1)
            #expect(store.writeCounts().settlements == purchases)
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
