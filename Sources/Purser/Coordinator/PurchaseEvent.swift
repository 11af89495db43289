import PurserCore

/// What the app hears about purchases, on `PurchaseCoordinator.events` and as `buy`'s answer.
public enum PurchaseEvent: Sendable, Hashable {
    /// Credited to the signed-in account by a purchase made now (or an Ask to Buy approval).
    case delivered(Delivery)
    /// Credited (now or before) while recovering a purchase an earlier run left unfinished.
    case redelivered(Delivery)
    /// Credited to the account that made the order, which is not the one signed in now.
    case deliveredToOtherAccount(Delivery)
    /// Paid (or waiting for a parent) but not credited yet; Purser keeps at it.
    case pending(PendingPurchase)
    /// Nothing was or will be delivered for this purchase.
    case failed(PurchaseFailure)

    /// The Apple transaction id, when there is one.
    public var transactionID: String? {
        switch self {
        case .delivered(let delivery), .redelivered(let delivery), .deliveredToOtherAccount(let delivery):
            delivery.transactionID
        case .pending(let pending): pending.transactionID
        case .failed(let failure): failure.transactionID
        }
    }
}

/// A credited purchase.
public struct Delivery: Sendable, Hashable {
    /// Apple's transaction id.
    public var transactionID: String
    /// The product bought.
    public var productID: String
    /// The server's order the purchase was made for, when known.
    public var orderID: OrderID?
    /// What it granted, when the server shows it (only to the owner).
    public var grants: Grants?

    /// A delivery from its parts; public so an app's tests can make one.
    public init(transactionID: String, productID: String, orderID: OrderID? = nil, grants: Grants? = nil) {
        self.transactionID = transactionID
        self.productID = productID
        self.orderID = orderID
        self.grants = grants
    }
}

/// A purchase that is paid (or may be) but not credited yet.
public struct PendingPurchase: Sendable, Hashable {
    /// The product bought.
    public var productID: String
    /// The server's order the purchase was made for, when known.
    public var orderID: OrderID?
    /// Apple's transaction id, once StoreKit reported one (none while Ask to Buy waits).
    public var transactionID: String?
    /// Why it is not credited yet.
    public var reason: PendingPurchaseReason

    /// A pending purchase from its parts; public so an app's tests can make one.
    public init(productID: String, orderID: OrderID? = nil, transactionID: String? = nil, reason: PendingPurchaseReason)
    {
        self.productID = productID
        self.orderID = orderID
        self.transactionID = transactionID
        self.reason = reason
    }
}

/// A purchase that ends without delivery.
public struct PurchaseFailure: Sendable, Hashable {
    /// The product the user tried to buy.
    public var productID: String
    /// The server's order the purchase was made for, when there was one.
    public var orderID: OrderID?
    /// Apple's transaction id, when StoreKit reported one.
    public var transactionID: String?
    /// Why nothing was or will be delivered.
    public var reason: PurchaseFailureReason

    /// A failure from its parts; public so an app's tests can make one.
    public init(productID: String, orderID: OrderID? = nil, transactionID: String? = nil, reason: PurchaseFailureReason)
    {
        self.productID = productID
        self.orderID = orderID
        self.transactionID = transactionID
        self.reason = reason
    }
}
