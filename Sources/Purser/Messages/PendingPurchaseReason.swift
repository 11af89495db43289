/// Why a purchase is not credited yet, with a stable code and a message for the user.
public enum PendingPurchaseReason: Sendable, Hashable {
    /// Ask to Buy: a parent has to approve.
    case askToBuy
    /// The server could not be reached; the purchase is kept and retried.
    case serverUnreachable
    /// The server recorded the transaction and said "not yet", with its reason code (e.g. `unbound`).
    case server(String)
    /// The server refused the request without deciding (its error code); retried on the next recovery.
    case refused(String)
    /// StoreKit reported only `purchasing`; the outcome will arrive later.
    case storeBusy
    /// Nobody is signed in; purchases are submitted after login. Never sent on `events`: such a purchase is held
    /// until `login`, which reports what became of it.
    case notSignedIn
    /// The app receipt is not available yet (StoreKit 1).
    case receiptUnavailable

    /// A stable code for logs (`ask_to_buy`, `server:unbound`, …).
    public var code: String {
        switch self {
        case .askToBuy: "ask_to_buy"
        case .serverUnreachable: "server_unreachable"
        case .server(let code): "server:\(code)"
        case .refused(let code): "refused:\(code)"
        case .storeBusy: "store_busy"
        case .notSignedIn: "not_signed_in"
        case .receiptUnavailable: "receipt_unavailable"
        }
    }

    /// A sentence to show the user, in `language` (the String Catalog's `pending.*` messages).
    public func message(_ language: PurserLanguage = .current) -> String {
        let key =
            switch self {
            case .askToBuy: "pending.ask_to_buy"
            case .serverUnreachable, .storeBusy, .receiptUnavailable: "pending.delayed"
            case .server, .refused: "pending.checking"
            case .notSignedIn: "pending.not_signed_in"
            }
        return MessageCatalog.shipped.text(key, language)
    }
}
