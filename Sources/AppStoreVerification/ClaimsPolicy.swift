import PurserCore

/// What a genuine payload must claim to be accepted by this app: its bundle id, an accepted environment and, for
/// production notifications, its app Apple id. A `nil` requirement is not checked.
public struct ClaimsPolicy: Sendable, Hashable {
    public var bundleID: String?
    public var environments: Set<AppStoreEnvironment>?
    public var appAppleID: Int64?

    public init(bundleID: String? = nil, environments: Set<AppStoreEnvironment>? = nil, appAppleID: Int64? = nil) {
        self.bundleID = bundleID
        self.environments = environments
        self.appAppleID = appAppleID
    }

    /// Accepts anything genuine; for tools that only inspect.
    public static let none = ClaimsPolicy()

    public func check(_ transaction: JWSTransaction) throws(VerificationError) {
        try check(bundleID: transaction.bundleId, environment: transaction.environment)
    }

    /// An app transaction: its bundle id and environment, and in production its app Apple id when one is required.
    public func check(_ appTransaction: JWSAppTransaction) throws(VerificationError) {
        try check(bundleID: appTransaction.bundleId, environment: appTransaction.receiptType)
        try check(appAppleID: appTransaction.appAppleId, environment: appTransaction.receiptType, of: "app transaction")
    }

    /// A notification that names no app at all (no `data`, `summary` or `appData`: a shape newer than this code) is
    /// not refused for it: Apple sends it to this app's URL, and any transaction inside is checked on its own.
    public func check(_ notification: JWSNotification) throws(VerificationError) {
        guard notification.namesApp else { return }
        try check(bundleID: notification.bundleId, environment: notification.environment)
        try check(appAppleID: notification.appAppleId, environment: notification.environment, of: "notification")
    }

    /// Checks a bundle id and an environment however they were learnt (a JWS, a verified receipt).
    public func check(bundleID claimed: String?, environment claimedEnvironment: String?) throws(VerificationError) {
        if let bundleID, claimed != bundleID {
            throw VerificationError(.wrongBundle, "signed for bundle \(claimed ?? "(none)"), not \(bundleID)")
        }
        if let environments {
            guard let claimedEnvironment, let environment = AppStoreEnvironment(rawValue: claimedEnvironment),
                environments.contains(environment)
            else {
                throw VerificationError(
                    .wrongEnvironment, "environment \(claimedEnvironment ?? "(none)") is not accepted")
            }
        }
    }

    /// In production, when an app Apple id is required, the one the payload names must be it.
    private func check(appAppleID claimed: Int64?, environment: String?, of kind: String) throws(VerificationError) {
        guard let appAppleID, environment == AppStoreEnvironment.production.rawValue, claimed != appAppleID else {
            return
        }
        throw VerificationError(
            .wrongApp, "the \(kind) is for app \(claimed.map(String.init) ?? "(none)"), not \(appAppleID)")
    }
}
