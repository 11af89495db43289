// What to tell the user about an event, and whether to tell them at all.
extension PurchaseEvent {
    /// Whether a user should hear of this event: every credit, every wait and every failure, except a purchase the
    /// user cancelled themselves (they know) and `notSignedIn` (held until login, never sent).
    public var isWorthShowing: Bool {
        switch self {
        case .delivered, .redelivered, .deliveredToOtherAccount: true
        case .pending(let pending): pending.reason != .notSignedIn
        case .failed(let failure): failure.reason != .cancelled
        }
    }

    /// A sentence to show the user, in `language`.
    public func message(_ language: PurserLanguage = .current) -> String {
        switch (self, language) {
        case (.delivered, .english): "Purchase complete. Your items have arrived."
        case (.delivered, .simplifiedChinese): "购买成功，商品已到账。"
        case (.redelivered, .english): "Your earlier purchase has been delivered."
        case (.redelivered, .simplifiedChinese): "您之前购买的商品已到账。"
        case (.deliveredToOtherAccount, .english): "This purchase was delivered to the account that made it."
        case (.deliveredToOtherAccount, .simplifiedChinese): "该商品已发放到购买时登录的账号。"
        case (.pending(let pending), _): pending.reason.message(language)
        case (.failed(let failure), _): failure.reason.message(language)
        }
    }
}
