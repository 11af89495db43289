/// Why `buy` did not end with a purchase's event. Every case but `terminated` is thrown before the App Store is
/// asked to charge; `terminated` may come after the charge, which recovery then settles at the next launch.
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
    /// The app is shutting down (or was killed), possibly after the App Store charged: recovery settles that
    /// purchase at the next launch.
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

    /// A sentence to show the user, in `language` (the String Catalog's `error.*` messages): the server out of
    /// reach, the server refusing the order (an unknown product, an expired sign-in, another refusal), the journal
    /// failing, or the purchase interrupted. Only `terminated`'s does not say "you have not been charged".
    public func message(_ language: PurserLanguage = .current) -> String {
        let key =
            switch self {
            case .notSignedIn: "error.not_signed_in"
            case .purchaseInProgress: "error.purchase_in_progress"
            case .earlierPurchaseUnfinished: "error.earlier_purchase_unfinished"
            case .server(let error) where error.isRetryable: "error.store_unreachable"
            case .server(let error) where error.kind == .unauthenticated || error.status == 401: "error.sign_in_again"
            case .server(let error) where error.code == "unknown_product": "error.not_for_sale"
            case .server: "error.order_refused"
            case .journal: "error.journal_unavailable"
            case .terminated: "error.interrupted"
            }
        return MessageCatalog.shipped.text(key, language)
    }
}
