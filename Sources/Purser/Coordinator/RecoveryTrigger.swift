/// What triggers a recovery pass over StoreKit's unfinished transactions.
public enum RecoveryTrigger: String, Sendable, Hashable {
    /// `start()`: the app launched.
    case launch
    /// The app returned to the foreground.
    case foreground
    /// `login(_:)`: a user signed in.
    case login
    /// The network became usable after being unusable.
    case networkAvailable
}
