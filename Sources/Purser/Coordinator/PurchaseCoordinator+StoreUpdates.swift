import PurserCore

// MARK: StoreKit updates

extension PurchaseCoordinator {
    /// What StoreKit reports on its own (its transaction listener): a purchase is settled like any other, a
    /// deferral is journaled and reported as Ask to Buy, a failure closes the payment it is about.
    func receive(_ update: StoreUpdate) async {
        guard alive else { return }
        switch update {
        case .purchased(let transaction):
            _ = try? await process(transaction, origin: .update, waitIfClaimed: false)
        case .deferred(let productID, let orderID):
            let entry = await waitingEntry(orderID: orderID, productID: productID)
            if let entry { _ = try? await journal.apply(.deferred, to: entry.id) }
            emit(
                .pending(
                    PendingPurchase(
                        productID: productID, orderID: entry?.id ?? orderID, transactionID: nil,
                        reason: .askToBuy)))
        case .failed(let productID, let orderID, let failure):
            if let entry = await waitingEntry(orderID: orderID, productID: productID) {
                _ = await close(entry, reason: failure.reason)
            }
        }
    }

    /// The open entry a failure or deferral is about: by order id, else the oldest payment of the product.
    private func waitingEntry(orderID: OrderID?, productID: String) async -> JournalEntry? {
        let waiting = await journal.open.filter { $0.productID == productID && $0.state.awaitsTransaction }
        if let orderID { return waiting.first { $0.id == orderID } }
        return waiting.first { $0.userID == session?.userID && $0.state == .paying }
    }
}
