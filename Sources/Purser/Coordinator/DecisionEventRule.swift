import PurserCore

/// Chooses the event the app hears for the server's answer about one transaction. The client obeys `finish` alone:
/// an unfinished answer is pending with the server's code; a finished one is delivered (redelivered when the
/// purchase is not news to the user), delivered to another account, refunded (revoked) or rejected with the
/// server's code, which is also what a decision this build does not know becomes. A value without I/O, so every
/// decision is tested without StoreKit, a journal or a server.
struct DecisionEventRule: Sendable, Hashable {
    var transactionID: String
    var productID: String
    /// The order the client matched the transaction to; a finished answer's own order id takes precedence.
    var orderID: OrderID?
    /// The purchase answers a payment of this run or an Ask to Buy approval: a credit is `delivered`, not
    /// `redelivered`.
    var fresh: Bool

    init(transaction: StoreTransaction, orderID: OrderID?, fresh: Bool) {
        self.transactionID = transaction.id
        self.productID = transaction.productID
        self.orderID = orderID
        self.fresh = fresh
    }

    /// The event for `answer`.
    func event(for answer: DecisionResponse) -> PurchaseEvent {
        guard answer.finish else {
            return .pending(
                PendingPurchase(
                    productID: productID, orderID: orderID, transactionID: transactionID,
                    reason: .server(answer.code)))
        }
        let orderID = answer.orderId ?? orderID
        let delivery = Delivery(
            transactionID: transactionID, productID: productID, orderID: orderID,
            grants: answer.grants)
        func failure(_ reason: PurchaseFailureReason) -> PurchaseEvent {
            .failed(
                PurchaseFailure(
                    productID: productID, orderID: orderID, transactionID: transactionID,
                    reason: reason))
        }
        switch answer.outcome {
        case .delivered, .alreadyDelivered: return fresh ? .delivered(delivery) : .redelivered(delivery)
        case .deliveredToOtherAccount: return .deliveredToOtherAccount(delivery)
        case .revoked: return failure(.refunded)
        case .rejected(let reason): return failure(.rejected(reason.code))
        // A finished `pending` (which no server sends) or a decision this build does not know: nothing was
        // delivered, and the server's code says why.
        case .pending, nil: return failure(.rejected(answer.code))
        }
    }
}
