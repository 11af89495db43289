import Foundation
import PurserCore
import PurserStorage

/// A broken ledger that forgets wallet idempotency: a spend sent again with an id it already applied is applied once
/// more under a fresh id and answered as applied now. Swapped into Purser with the game backend resending (the
/// `spend-retry` family), the chaos run's wallet invariants must fail.
final class ForgetfulWalletLedgerStore: ForwardingLedgerStore {
    let inner: any LedgerStore
    private let copies = Counter()

    init(inner: any LedgerStore) { self.inner = inner }

    func applyWalletTransaction(_ request: WalletTransaction.Request, now: Date) async throws
        -> WalletTransaction.Outcome
    {
        let outcome = try await inner.applyWalletTransaction(request, now: now)
        guard case .replayed = outcome else { return outcome }
        var copy = request
        copy.id = "\(request.id)-again-\(copies.next())"
        guard case .applied(var change) = try await inner.applyWalletTransaction(copy, now: now) else {
            return outcome
        }
        change.request.id = request.id
        return .applied(change)
    }
}
