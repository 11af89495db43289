import Purser
import PurserChaos
import PurserCore

/// A broken app: it finishes each transaction as soon as it has the evidence, before the server answered (the
/// field's "finish, then verify"). Swapped into Purser, the chaos run must fail.
struct FinishFirstAdapter: ForwardingStoreAdapter {
    let inner: any StoreAdapter

    func evidence(for transaction: StoreTransaction) async throws(StoreFailure) -> SubmitTransactionRequest {
        let evidence = try await inner.evidence(for: transaction)
        await inner.finish(transaction)
        return evidence
    }
}
