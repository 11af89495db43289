import Foundation
import PurserCore
import Synchronization

/// Group commit for settlements on PostgreSQL: callers queue their submissions, and a few workers (each with a pooled
/// connection while it works) take what is waiting and settle it as one batch, in one database transaction and one
/// commit. A batch holds each transaction id and each order once; a second submission of either waits for the next
/// batch, so it is decided against the first's committed record, as it would be on another replica. The workers run
/// inside the store's `run()`.
final class PostgresSettler: Sendable {
    /// One submission waiting for its settlement.
    struct Item: Sendable {
        let submission: Submission
        let now: Date
        let caller: CheckedContinuation<Settlement, any Error>
    }

    private struct State {
        var waiting: [Item] = []
        var idle: [CheckedContinuation<Void, Never>] = []
        var stopped = false
    }

    private let state = Mutex(State())
    /// Batches settled at once, each on its own connection.
    let workers: Int
    /// The most settlements one batch holds.
    let batchLimit: Int

    init(workers: Int = 4, batchLimit: Int = 128) {
        self.workers = workers
        self.batchLimit = batchLimit
    }

    /// Queues `submission` and returns its settlement once the batch holding it has committed.
    func settle(_ submission: Submission, now: Date) async throws -> Settlement {
        try await withCheckedThrowingContinuation { caller in
            let wake = state.withLock { state -> CheckedContinuation<Void, Never>?? in
                guard !state.stopped else { return nil }
                state.waiting.append(Item(submission: submission, now: now, caller: caller))
                return .some(state.idle.popLast())
            }
            switch wake {
            case nil: caller.resume(throwing: StorageError(.unavailable, "the PostgreSQL ledger is closed"))
            case let worker?: worker?.resume()
            }
        }
    }

    /// Runs the workers until cancelled, each settling batches with `settle`; whatever is still queued then fails.
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

    /// No more batches: idle workers return, new submissions fail.
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

    /// Up to `batchLimit` of `waiting`, oldest first, each transaction id and order at most once; the rest stays.
    private func take(from waiting: inout [Item]) -> [Item] {
        var batch: [Item] = []
        var rest: [Item] = []
        var transactions: Set<String> = []
        var orders: Set<OrderID> = []
        for item in waiting {
            let id = item.submission.transaction.transactionID
            let order = item.submission.orderToLookUp
            if batch.count < batchLimit, !transactions.contains(id), order.map({ !orders.contains($0) }) ?? true {
                batch.append(item)
                transactions.insert(id)
                if let order { orders.insert(order) }
            } else {
                rest.append(item)
            }
        }
        waiting = rest
        return batch
    }
}
