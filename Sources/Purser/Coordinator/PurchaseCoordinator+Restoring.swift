import PurserCore

// MARK: Restore and entitlements

extension PurchaseCoordinator {
    /// Restore Purchases (App Review asks for the button): asks the App Store for the user's purchases again
    /// (StoreKit 2: `AppStore.sync()` then `Transaction.currentEntitlements`; StoreKit 1:
    /// `restoreCompletedTransactions()`) and settles each transaction exactly as a purchase is settled: matched to
    /// the journal, submitted, finished only on the server's decision. The server keys on Apple's transaction id, so
    /// a restore never credits twice: what it credited before comes back `redelivered`. Returns the events (also
    /// sent on `events`), oldest purchase first; stops at the first the server could not be reached for. The App
    /// Store may ask the user to sign in.
    public func restore() async throws(RestoreError) -> [PurchaseEvent] {
        guard alive else { throw .terminated }
        guard session != nil else { throw .notSignedIn }
        let transactions: [StoreTransaction]
        do {
            transactions = try await store.restore()
        } catch {
            throw .store(error)
        }
        var events: [PurchaseEvent] = []
        do {
            for transaction in transactions {
                guard let event = try await process(transaction, origin: .restore, waitIfClaimed: true) else {
                    continue
                }
                events.append(event)
                if case .pending(let pending) = event, pending.reason == .serverUnreachable { break }
            }
        } catch {
            throw .terminated
        }
        return events
    }

    /// The non-consumables the user owns on this Apple account, as StoreKit knows them now (StoreKit 2:
    /// `Transaction.currentEntitlements`), oldest first. No sign-in needed and nothing sent to the server: for what
    /// the server credited, read `wallet().entitlements`. StoreKit 1 cannot list them without a restore and throws.
    public func entitlements() async throws(StoreFailure) -> [StoreTransaction] {
        try await store.entitlements()
    }
}
