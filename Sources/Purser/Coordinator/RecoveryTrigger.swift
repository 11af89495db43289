/// What triggers a recovery pass over StoreKit's unfinished transactions.
public enum RecoveryTrigger: String, Sendable, Hashable {
    case launch, foreground, login, networkAvailable
}
