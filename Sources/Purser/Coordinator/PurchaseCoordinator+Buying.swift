import PurserCore

// MARK: Buying

extension PurchaseCoordinator {
    /// Buys `productID`: creates the order, journals it, pays, submits and finishes. Returns the purchase's event
    /// (also sent on `events`). Unfinished transactions of the same product are settled first, so StoreKit never
    /// answers with a bare `purchasing`. `buy(_:)` buys one.
    public func buy(_ productID: String, quantity: Int) async throws(PurchaseError) -> PurchaseEvent {
        try await buy(productID, quantity: quantity, anchor: nil)
    }

    /// Buys `product` (from `products()`), with the payment sheet in `anchor` when there is one: the scene or window
    /// the user tapped Buy in (`buy(_:quantity:confirmIn:)` on `PurchaseCoordinating` takes the scene or window
    /// itself). Without an anchor the StoreKit 2 adapter uses the first foreground scene, which on an iPad with
    /// several windows may be the wrong one.
    public func buy(_ product: PurchasableProduct, quantity: Int = 1, confirmIn anchor: PurchaseAnchor?)
        async throws(PurchaseError) -> PurchaseEvent
    {
        try await buy(product.id, quantity: quantity, anchor: anchor)
    }

    private func buy(_ productID: String, quantity: Int, anchor: PurchaseAnchor?) async throws(PurchaseError)
        -> PurchaseEvent
    {
        guard alive else { throw .terminated }
        guard let session else { throw .notSignedIn }
        guard buying.insert(productID).inserted else { throw .purchaseInProgress }
        defer { buying.remove(productID) }
        do {
            return try await purchase(productID, quantity: quantity, session: session, anchor: anchor)
        } catch is Terminated {
            throw .terminated
        } catch let error as PurchaseError {
            throw error
        } catch {
            throw .terminated
        }
    }

    /// The product list: the server's catalog joined with the store's names and prices, cached and refreshed when
    /// the server's list changes.
    public func products() async throws(ProductCatalogError) -> [PurchasableProduct] {
        guard let session else { throw ProductCatalogError(code: "not_signed_in", message: "sign in first") }
        return try await catalog.products(as: session)
    }

    private func purchase(_ productID: String, quantity: Int, session: PurserSession, anchor: PurchaseAnchor?)
        async throws -> PurchaseEvent
    {
        for transaction in await store.unfinishedTransactions() where transaction.productID == productID {
            _ = try await process(transaction, origin: .recovery, waitIfClaimed: true)
        }
        if await store.unfinishedTransactions().contains(where: { $0.productID == productID }) {
            throw PurchaseError.earlierPurchaseUnfinished
        }
        // The purchase's trace starts with its order; its journal entry keeps it for every later request.
        let traceID = TraceContext.newTraceID()
        let order: OrderResponse
        do {
            order = try await api.createOrder(productID: productID, quantity: quantity, as: session, traceID: traceID)
        } catch {
            throw PurchaseError.server(error)
        }
        try await step(.orderCreated)
        let entry = JournalEntry(
            id: order.orderId, userID: session.userID, productID: productID, quantity: quantity,
            createdAt: configuration.now(), traceID: traceID)
        do {
            try await journal.begin(entry)
            try await step(.journaled)
            try await journal.apply(.paymentAdded, to: entry.id)
        } catch let error as JournalStoreError {
            throw PurchaseError.journal(error.description)
        } catch let error as PurchaseJournalError {
            throw PurchaseError.journal(error.description)
        }
        let result =
            if let anchor {
                await store.purchase(
                    productID: productID, quantity: quantity, orderID: order.orderId, confirmIn: anchor)
            } else {
                await store.purchase(productID: productID, quantity: quantity, orderID: order.orderId)
            }
        guard alive else { throw Terminated() }
        switch result {
        case .purchased(let transaction):
            if let event = try await process(transaction, origin: .purchase, waitIfClaimed: true) { return event }
            return emit(
                .pending(
                    PendingPurchase(
                        productID: productID, orderID: order.orderId,
                        transactionID: transaction.id, reason: .storeBusy)))
        case .deferred:
            _ = try? await journal.apply(.deferred, to: entry.id)
            return emit(
                .pending(
                    PendingPurchase(
                        productID: productID, orderID: order.orderId, transactionID: nil,
                        reason: .askToBuy)))
        case .cancelled:
            return await close(entry, reason: .cancelled)
        case .failed(let failure):
            return await close(entry, reason: failure.reason)
        case .stalled:
            stalledOrders.insert(order.orderId)
            return emit(
                .pending(
                    PendingPurchase(
                        productID: productID, orderID: order.orderId, transactionID: nil,
                        reason: .storeBusy)))
        }
    }

    /// Closes a payment that never charged: the journal entry ends cancelled (the user cancelled, however StoreKit
    /// reported it) or failed, and the server's order is cancelled (best effort: a lost cancel leaves the order
    /// waiting, which costs nothing).
    func close(_ entry: JournalEntry, reason: PurchaseFailureReason) async -> PurchaseEvent {
        let event: JournalEvent = reason == .cancelled ? .cancelled("cancelled") : .failed(reason.code)
        _ = try? await journal.apply(event, to: entry.id)
        if let session, session.userID == entry.userID {
            let traceID = await self.traceID(of: entry)
            _ = try? await api.cancelOrder(entry.id, reason: reason.code, as: session, traceID: traceID)
        }
        return emit(
            .failed(
                PurchaseFailure(
                    productID: entry.productID, orderID: entry.id, transactionID: nil,
                    reason: reason)))
    }
}
