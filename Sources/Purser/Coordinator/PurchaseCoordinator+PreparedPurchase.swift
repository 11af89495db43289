import PurserCore

// MARK: Purchases the app pays through StoreKit's own views

extension PurchaseCoordinator {
    /// Creates the server's order for `productID` and journals it, for a purchase the app pays itself through
    /// StoreKit's `ProductView`, `StoreView` or `PurchaseAction`: pass `appAccountToken` as the purchase's
    /// `.appAccountToken(_:)` option (PurserStoreKit's `purchaseOptions(for:)` does both). StoreKit reports the
    /// transaction on `Transaction.updates`, where the coordinator settles it as it settles `buy`'s: submitted,
    /// finished only on the server's decision, and reported on `events` as `delivered`.
    public func preparePurchase(_ productID: String, quantity: Int) async throws(PurchaseError)
        -> PreparedPurchase
    {
        guard alive else { throw .terminated }
        guard let session else { throw .notSignedIn }
        let traceID = TraceContext.newTraceID()
        let order: OrderResponse
        do {
            order = try await api.createOrder(productID: productID, quantity: quantity, as: session, traceID: traceID)
        } catch {
            throw .server(error)
        }
        let entry = JournalEntry(
            id: order.orderId, userID: session.userID, productID: productID, quantity: quantity,
            createdAt: configuration.now(), traceID: traceID)
        do {
            try await journal.begin(entry)
            try await journal.apply(.paymentAdded, to: entry.id)
        } catch let error as JournalStoreError {
            throw .journal(error.description)
        } catch let error as PurchaseJournalError {
            throw .journal(error.description)
        } catch {
            throw .journal("\(error)")
        }
        // Its transaction, whenever StoreKit reports it, answers a payment of this run: news to the user.
        stalledOrders.insert(order.orderId)
        return PreparedPurchase(orderID: order.orderId, productID: productID, quantity: quantity)
    }

    /// The user left StoreKit's sheet without paying for `prepared` (a `PurchaseAction` answered `userCancelled`, or
    /// threw): the journal entry is closed, the server's order cancelled, and the failure reported, as for `buy`.
    /// A charge that lands for it after all is still credited. Returns nil when the purchase was already settled.
    /// `cancelPreparedPurchase(_:)` gives the reason `cancelled`.
    @discardableResult
    public func cancelPreparedPurchase(_ prepared: PreparedPurchase, reason: PurchaseFailureReason)
        async -> PurchaseEvent?
    {
        guard alive, let entry = await journal.entry(prepared.orderID), entry.state.awaitsTransaction else {
            return nil
        }
        stalledOrders.remove(prepared.orderID)
        return await close(entry, reason: reason)
    }

    /// Settles StoreKit's unfinished transaction `transactionID` now, as a purchase is settled: for a transaction
    /// the app's own StoreKit call answered (a `PurchaseAction`). Returns its event (nil when StoreKit no longer holds
    /// it and this run did not settle it, or nobody is signed in: recovery settles it then).
    public func settleTransaction(_ transactionID: String) async -> PurchaseEvent? {
        guard alive, session != nil else { return nil }
        guard let transaction = await store.unfinishedTransactions().first(where: { $0.id == transactionID }) else {
            return settled[transactionID]
        }
        return try? await process(transaction, origin: .update, waitIfClaimed: true)
    }
}
