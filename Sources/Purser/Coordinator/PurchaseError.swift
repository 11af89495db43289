/// Why `buy` could not start a purchase. Nothing was charged in any of these cases.
public enum PurchaseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `login` first: orders belong to an account.
    case notSignedIn
    /// A purchase of this product is already in progress.
    case purchaseInProgress
    /// An earlier purchase of this product is still unfinished and could not be settled now; StoreKit would only
    /// answer `purchasing`. Purser keeps retrying it; try again later.
    case earlierPurchaseUnfinished
    /// The server could not create the order.
    case server(PurserAPIError)
    /// The journal could not record the purchase, so it was not started.
    case journal(String)
    /// The app is shutting down (or was killed).
    case terminated

    /// A stable code for logs (`not_signed_in`, `purchase_in_progress`, `server_unreachable`, …).
    public var code: String {
        switch self {
        case .notSignedIn: "not_signed_in"
        case .purchaseInProgress: "purchase_in_progress"
        case .earlierPurchaseUnfinished: "earlier_purchase_unfinished"
        case .server(let error): error.isRetryable ? "server_unreachable" : "order_refused"
        case .journal: "journal_unavailable"
        case .terminated: "terminated"
        }
    }

    /// The code, with the underlying error's description where there is one.
    public var description: String {
        switch self {
        case .server(let error): "\(code): \(error)"
        case .journal(let message): "\(code): \(message)"
        default: code
        }
    }

    /// A sentence to show the user, in `language`.
    public func message(_ language: PurserLanguage = .current) -> String {
        switch (self, language) {
        case (.notSignedIn, .english): "Sign in to buy."
        case (.notSignedIn, .simplifiedChinese): "请先登录再购买。"
        case (.purchaseInProgress, .english): "This purchase is already in progress."
        case (.purchaseInProgress, .simplifiedChinese): "该商品正在购买中。"
        case (.earlierPurchaseUnfinished, .english):
            "Your previous purchase of this item is still being delivered. Please try again shortly."
        case (.earlierPurchaseUnfinished, .simplifiedChinese): "您上一次购买的该商品仍在发放中，请稍后再试。"
        case (.server, .english), (.journal, .english), (.terminated, .english):
            "The store is not reachable right now. You have not been charged; please try again."
        case (.server, .simplifiedChinese), (.journal, .simplifiedChinese), (.terminated, .simplifiedChinese):
            "暂时无法连接商店，未产生扣款，请稍后重试。"
        }
    }
}
