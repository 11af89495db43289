/// Why a purchase did not deliver, with a stable code and a message for the user.
public enum PurchaseFailureReason: Sendable, Hashable {
    /// The user closed the payment sheet.
    case cancelled
    /// Payments are not allowed on this device or account (parental controls, restrictions).
    case notAllowed
    /// The store does not sell this product here.
    case productUnavailable
    /// The device could not reach the App Store.
    case network
    /// The app receipt could not be obtained (StoreKit 1).
    case receiptUnavailable
    /// The server definitively refused the transaction, with its reason code.
    case rejected(String)
    /// Apple refunded the purchase before it was delivered.
    case refunded
    /// StoreKit failed for a reason it did not name.
    case unknown

    /// A stable code for logs (`cancelled`, `rejected:unknown_product`, …).
    public var code: String {
        switch self {
        case .cancelled: "cancelled"
        case .notAllowed: "not_allowed"
        case .productUnavailable: "product_unavailable"
        case .network: "network"
        case .receiptUnavailable: "receipt_unavailable"
        case .rejected(let code): "rejected:\(code)"
        case .refunded: "refunded"
        case .unknown: "unknown"
        }
    }

    /// A sentence to show the user, in `language` (the String Catalog's `failure.*` messages).
    public func message(_ language: PurserLanguage = .current) -> String {
        let key =
            switch self {
            case .rejected: "failure.rejected"
            default: "failure.\(code)"
            }
        return MessageCatalog.shipped.text(key, language)
    }
}
