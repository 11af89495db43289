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

    /// A sentence to show the user, in `language` (the String Catalog's `event.*` messages for credits; a wait's or a
    /// failure's reason says its own).
    public func message(_ language: PurserLanguage = .current) -> String {
        switch self {
        case .delivered: MessageCatalog.shipped.text("event.delivered", language)
        case .redelivered: MessageCatalog.shipped.text("event.redelivered", language)
        case .deliveredToOtherAccount: MessageCatalog.shipped.text("event.delivered_to_other_account", language)
        case .pending(let pending): pending.reason.message(language)
        case .failed(let failure): failure.reason.message(language)
        }
    }
}
