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

    /// A sentence to show the user, in `language`.
    public func message(_ language: PurserLanguage = .current) -> String {
        switch (self, language) {
        case (.askToBuy, .english): "Waiting for approval. The item arrives once the purchase is approved."
        case (.askToBuy, .simplifiedChinese): "正在等待批准。购买获批后商品将自动到账。"
        case (.serverUnreachable, .english), (.storeBusy, .english), (.receiptUnavailable, .english):
            "Your payment went through. Delivery is delayed; it will arrive automatically."
        case (.serverUnreachable, .simplifiedChinese), (.storeBusy, .simplifiedChinese),
            (.receiptUnavailable, .simplifiedChinese):
            "支付已成功，发货稍有延迟，商品将自动到账。"
        case (.server, .english), (.refused, .english):
            "Your payment is recorded and being checked. It will be delivered to the account that bought it."
        case (.server, .simplifiedChinese), (.refused, .simplifiedChinese):
            "您的支付已记录，正在核实，商品将发放到购买时的账号。"
        case (.notSignedIn, .english): "Sign in to receive your purchase."
        case (.notSignedIn, .simplifiedChinese): "请登录以领取您购买的商品。"
        }
    }
}
