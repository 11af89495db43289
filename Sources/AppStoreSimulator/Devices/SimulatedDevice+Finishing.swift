import AppStoreVerification
import Synchronization

// Finishing transactions (both StoreKit generations), and what tests see of it: how often each was finished, what
// is left unfinished, and a hook that runs before every finish.
extension SimulatedDevice {
    /// Called before a transaction is finished; tests use it to check that the server decided first.
    public typealias FinishHook = @Sendable (_ transactionID: String) async -> Void

    /// Called before every finish, with the transaction id.
    public func onFinish(_ hook: @escaping FinishHook) {
        state.withLock { $0.finishHook = hook }
    }

    /// How often the app finished this transaction.
    public func finishCount(of transactionID: String) -> Int {
        state.withLock { $0.finishCount[transactionID, default: 0] }
    }

    /// Purchased transactions StoreKit still holds for the app, oldest first.
    public var unfinishedTransactionIDs: [String] {
        withQueue { $0.unfinished.compactMap(\.transactionID) }
    }

    /// Runs `body` on the device's state once StoreKit's queue is up to date: purchases a developer's server
    /// finished at Apple (Finish Transaction) have left it, as they leave a real device's queue.
    func withQueue<T: Sendable>(_ body: (inout State) -> T) -> T {
        let finished = store.finishedByServer.snapshot
        return state.withLock { state in
            if !finished.isEmpty {
                state.unfinished.removeAll { entry in entry.transactionID.map(finished.contains) ?? false }
            }
            return body(&state)
        }
    }

    /// `finishTransaction` (StoreKit 1) or `Transaction.finish()` (StoreKit 2). Ignored from a killed process.
    public func finishTransaction(_ process: SimulatedProcess, queueID: String) async {
        guard isRunning(process) else { return }
        let hook = state.withLock { $0.finishHook }
        let isPurchase = state.withLock { state in state.unfinished.contains { $0.queueID == queueID } }
        if isPurchase, let hook { await hook(queueID) }
        guard isRunning(process) else { return }
        let removed = state.withLock { state -> DeviceTransaction? in
            if let index = state.failed.firstIndex(where: { $0.queueID == queueID }) {
                return state.failed.remove(at: index)
            }
            if let index = state.restored.firstIndex(where: { $0.queueID == queueID }) {
                state.finishCount[queueID, default: 0] += 1
                state.restored.remove(at: index)
                return nil
            }
            guard let index = state.unfinished.firstIndex(where: { $0.queueID == queueID }) else { return nil }
            state.finishCount[queueID, default: 0] += 1
            return state.unfinished.remove(at: index)
        }
        guard let transactionID = removed?.transactionID else { return }
        // A finished consumable leaves the receipt file the next time the receipt is updated (a payment or a
        // refresh), as Apple documents; the file is not rewritten now.
        try? await store.finish(transactionID: transactionID)
    }
}
