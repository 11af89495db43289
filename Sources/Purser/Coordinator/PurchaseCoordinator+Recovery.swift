// MARK: Recovery

extension PurchaseCoordinator {
    /// Settles every unfinished StoreKit transaction, oldest first, one at a time, then tidies the journal and sends
    /// again the user's spends that got no answer (`spend`). Stops
    /// at the first transaction the server could not be reached for (the rest wait for the next trigger). The
    /// coordinator runs it by itself at launch, at login and on `Configuration.signals`; call it for anything else
    /// (tests, an app that turned the signals off and has its own).
    public func recover(_ trigger: RecoveryTrigger) async {
        guard alive, let session else { return }
        do {
            for transaction in await store.unfinishedTransactions() {
                let event = try await process(transaction, origin: .recovery, waitIfClaimed: false)
                if case .pending(let pending) = event, pending.reason == .serverUnreachable { return }
            }
            try await tidyJournal(session: session)
            await resendSpends(session: session)
        } catch {
            return
        }
    }

    /// Closes entries StoreKit no longer holds: decided ones whose finish went through before a crash, and ones
    /// whose payment was never added.
    private func tidyJournal(session: PurserSession) async throws {
        let unfinished = Set(await store.unfinishedTransactions().map(\.id))
        for entry in await journal.open where !buying.contains(entry.productID) {
            guard alive else { throw Terminated() }
            if entry.state == .decided, let id = entry.transactionID, !unfinished.contains(id) {
                _ = try? await journal.apply(.finished, to: entry.id)
            } else if entry.state == .created {
                _ = try? await journal.apply(.cancelled("payment_never_added"), to: entry.id)
                if entry.userID == session.userID {
                    let traceID = await self.traceID(of: entry)
                    _ = try? await api.cancelOrder(
                        entry.id, reason: "payment_never_added", as: session, traceID: traceID)
                }
            }
        }
    }
}
