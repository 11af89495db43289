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

    /// A sentence to show the user, in `language`.
    public func message(_ language: PurserLanguage = .current) -> String {
        switch (self, language) {
        case (.cancelled, .english): "The purchase was cancelled. You have not been charged."
        case (.cancelled, .simplifiedChinese): "购买已取消，未产生扣款。"
        case (.notAllowed, .english):
            "Purchases are not allowed on this device. Check Screen Time or ask the account owner."
        case (.notAllowed, .simplifiedChinese): "此设备不允许购买。请检查屏幕使用时间设置或联系账户持有人。"
        case (.productUnavailable, .english): "This item is not available in your region right now."
        case (.productUnavailable, .simplifiedChinese): "该商品目前在您所在的地区不可用。"
        case (.network, .english): "Could not reach the App Store. Check your connection and try again."
        case (.network, .simplifiedChinese): "无法连接 App Store，请检查网络后重试。"
        case (.receiptUnavailable, .english):
            "Could not confirm your purchase with the App Store yet. We will keep trying."
        case (.receiptUnavailable, .simplifiedChinese): "暂时无法向 App Store 确认您的购买，我们会继续尝试。"
        case (.rejected, .english): "This purchase could not be verified. If you were charged, contact support."
        case (.rejected, .simplifiedChinese): "无法验证此次购买。如已扣款，请联系客服。"
        case (.refunded, .english): "This purchase was refunded, so nothing was delivered."
        case (.refunded, .simplifiedChinese): "此次购买已退款，因此未发放商品。"
        case (.unknown, .english): "Something went wrong with the purchase. If you were charged, it will be delivered."
        case (.unknown, .simplifiedChinese): "购买出现问题。如已扣款，商品将会补发。"
        }
    }
}
