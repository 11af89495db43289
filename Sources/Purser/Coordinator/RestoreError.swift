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

    public var code: String {
        switch self {
        case .notSignedIn: "not_signed_in"
        case .store(let failure): failure.reason == .cancelled ? "cancelled" : "store_unavailable"
        case .terminated: "terminated"
        }
    }

    public var description: String {
        switch self {
        case .store(let failure): "\(code): \(failure)"
        default: code
        }
    }

    /// A sentence to show the user, in `language`.
    public func message(_ language: PurserLanguage = .current) -> String {
        switch (self, language) {
        case (.notSignedIn, .english): "Sign in to restore your purchases."
        case (.notSignedIn, .simplifiedChinese): "请先登录再恢复购买。"
        case (.store(let failure), _) where failure.reason == .cancelled:
            language == .english ? "Restore was cancelled." : "已取消恢复购买。"
        case (.store, .english), (.terminated, .english):
            "The App Store is not reachable right now. Please try again."
        case (.store, .simplifiedChinese), (.terminated, .simplifiedChinese): "暂时无法连接 App Store，请稍后重试。"
        }
    }
}
