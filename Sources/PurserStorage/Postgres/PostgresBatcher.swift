import Foundation
import Logging
import PurserCore
import Synchronization

/// Group commit on PostgreSQL: callers queue their work, and a few workers (each with a pooled connection while it
/// works) take what is waiting and do it as one batch, in one database transaction and one commit. A batch holds each
/// key (`keys`: a transaction id, an order, a wallet id) once; work with a key already in the batch waits for the next
/// one, so it is decided against the first's committed record, as it would be on another replica. The workers run
/// inside the store's `run()`. Settlements (`PostgresSettler`) and wallet transactions (`PostgresWalletBatcher`).
final class PostgresBatcher<Work: Sendable, Answer: Sendable>: Sendable {
    /// One piece of work waiting for its answer.
    struct Item: Sendable {
        let work: Work
        let now: Date
        let caller: CheckedContinuation<Answer, any Error>
    }

    private struct State {
        var waiting: [Item] = []
        var idle: [CheckedContinuation<Void, Never>] = []
        var stopped = false
    }

    private let state = Mutex(State())
    /// Batches done at once, each on its own connection.
    let workers: Int
    /// The most items one batch holds.
    let batchLimit: Int
    /// What may be in a batch once only.
    private let keys: @Sendable (Work) -> [String]

    init(workers: Int = 4, batchLimit: Int = 128, keys: @escaping @Sendable (Work) -> [String]) {
        self.workers = workers
        self.batchLimit = batchLimit
        self.keys = keys
    }

    /// Queues `work` and returns its answer once the batch holding it has committed.
    func submit(_ work: Work, now: Date) async throws -> Answer {
        try await withCheckedThrowingContinuation { caller in
            let wake = state.withLock { state -> CheckedContinuation<Void, Never>?? in
                guard !state.stopped else { return nil }
                state.waiting.append(Item(work: work, now: now, caller: caller))
                return .some(state.idle.popLast())
            }
            switch wake {
            case nil: caller.resume(throwing: StorageError(.unavailable, "the PostgreSQL ledger is closed"))
            case let worker?: worker?.resume()
            }
        }
    }

    /// Runs the workers until cancelled, each doing batches with `settle`; whatever is still queued then fails.
    func run(_ settle: @escaping @Sendable ([Item]) async -> Void) async {
        await withTaskCancellationHandler {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<workers {
                    group.addTask {
                        while let batch = await self.nextBatch() { await settle(batch) }
                    }
                }
            }
        } onCancel: {
            stop()
        }
        stop()
        let left = state.withLock { state in
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for item in left { item.caller.resume(throwing: StorageError(.unavailable, "the PostgreSQL ledger is closed")) }
    }

    /// No more batches: idle workers return, new work fails.
    private func stop() {
        let idle = state.withLock { state in
            state.stopped = true
            defer { state.idle.removeAll() }
            return state.idle
        }
        for worker in idle { worker.resume() }
    }

    /// The next batch, waiting for one if nothing is queued; nil once stopped.
    private func nextBatch() async -> [Item]? {
        while true {
            let batch = state.withLock { state -> [Item]? in
                guard !state.stopped else { return nil }
                return take(from: &state.waiting)
            }
            guard let batch else { return nil }
            if !batch.isEmpty { return batch }
            await withCheckedContinuation { worker in
                let now = state.withLock { state in
                    guard state.waiting.isEmpty, !state.stopped else { return true }
                    state.idle.append(worker)
                    return false
                }
                if now { worker.resume() }
            }
        }
    }

    /// Up to `batchLimit` of `waiting`, oldest first, each key at most once; the rest stays.
    private func take(from waiting: inout [Item]) -> [Item] {
        var batch: [Item] = []
        var rest: [Item] = []
        var taken: Set<String> = []
        for item in waiting {
            let itemKeys = keys(item.work)
            if batch.count < batchLimit, itemKeys.allSatisfy({ !taken.contains($0) }) {
                batch.append(item)
                taken.formUnion(itemKeys)
            } else {
                rest.append(item)
            }
        }
        waiting = rest
        return batch
    }
}

extension PostgresBatcher {
    /// Answers every item of `items` from `process` run on the whole batch (one database transaction). When that
    /// fails for any reason but the database being unavailable, each item is processed again alone, so one bad item
    /// sinks no other. `answered` hears each batch that got its answers or its error.
    static func answer(
        _ items: [Item], logger: Logger, what: String, answered: ([Item]) -> Void = { _ in },
        _ process: ([Item]) async throws -> [Answer]
    ) async {
        do {
            let answers = try await process(items)
            answered(items)
            for (item, answer) in zip(items, answers) { item.caller.resume(returning: answer) }
        } catch {
            let unavailable = (error as? StorageError)?.code == .unavailable
            guard items.count > 1, !unavailable else {
                answered(items)
                for item in items { item.caller.resume(throwing: error) }
                return
            }
            logger.debug(
                "a \(what) batch failed; doing its items one by one",
                metadata: ["purser.batch": "\(items.count)", "purser.error": "\(error)"])
            for item in items { await answer([item], logger: logger, what: what, answered: answered, process) }
        }
    }
}

/// Settlements in batches: each transaction id and each order at most once per batch.
typealias PostgresSettler = PostgresBatcher<Submission, Settlement>

extension PostgresSettler {
    convenience init(workers: Int) {
        self.init(workers: workers) { submission in
            ["t:" + submission.transaction.transactionID] + (submission.orderToLookUp.map { ["o:\($0)"] } ?? [])
        }
    }
}

/// Wallet transactions in batches: each idempotency id at most once per batch.
typealias PostgresWalletBatcher = PostgresBatcher<WalletTransaction.Request, WalletTransaction.Outcome>
