/// Why `restore` did not settle the user's purchases. Nothing is lost in any of these cases: the server keeps what
/// it credited, and StoreKit keeps what it holds.
public enum RestoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `login` first: restored purchases are credited to an account.
    case notSignedIn
    /// The App Store did not answer: the user cancelled its sign-in (`cancelled`), the device is offline
    /// (`network`), or StoreKit failed otherwise.
    case store(StoreFailure)
    /// The app is shutting down (or was killed).
    case terminated

    /// The stable code, for logs: `not_signed_in`, `cancelled`, `store_unavailable` or `terminated`.
    public var code: String {
        switch self {
        case .notSignedIn: "not_signed_in"
        case .store(let failure): failure.reason == .cancelled ? "cancelled" : "store_unavailable"
        case .terminated: "terminated"
        }
    }

    /// The code, with StoreKit's own description where there is one.
    public var description: String {
        switch self {
        case .store(let failure): "\(code): \(failure)"
        default: code
        }
    }

    /// A sentence to show the user, in `language` (the String Catalog's `restore.*` messages).
    public func message(_ language: PurserLanguage = .current) -> String {
        let key =
            switch self {
            case .notSignedIn: "restore.not_signed_in"
            case .store(let failure) where failure.reason == .cancelled: "restore.cancelled"
            case .store, .terminated: "restore.store_unreachable"
            }
        return MessageCatalog.shipped.text(key, language)
    }
}
