import AppStoreVerification
import X509

/// How a Purser server reaches the App Store: the roots it trusts for what Apple signs, Apple's `verifyReceipt`, and
/// the App Store Server API when credentials exist. Apple's real endpoints supply one (`apple(_:)`), the built-in
/// simulator another (`simulator(_:…)`); `PurserAssembly` takes either, so every server is assembled the same way.
public struct AppStoreAccess: Sendable {
    /// The roots signed transactions and notifications must chain to.
    public var trustedRoots: [Certificate]
    /// Apple's `verifyReceipt`, for StoreKit 1 receipts.
    public var receipts: VerifyReceiptClient
    /// The App Store Server API (reconciliation, support lookups, consumption answers); `nil` without credentials.
    public var serverAPI: AppStoreServerAPIClient?
    /// An App Store served by this very server process (the simulator); `nil` for Apple.
    public var hosted: HostedAppStore?

    public init(
        trustedRoots: [Certificate], receipts: VerifyReceiptClient, serverAPI: AppStoreServerAPIClient?,
        hosted: HostedAppStore? = nil
    ) {
        self.trustedRoots = trustedRoots
        self.receipts = receipts
        self.serverAPI = serverAPI
        self.hosted = hosted
    }
}
