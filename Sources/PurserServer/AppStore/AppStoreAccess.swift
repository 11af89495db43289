import AppStoreVerification
import X509

/// How a Purser server reaches the App Store: the roots it trusts for what Apple signs (ES256 payloads, RSA app
/// receipts), Apple's `verifyReceipt`, and the App Store Server API when credentials exist. Apple's real endpoints
/// supply one (`apple(_:)`), the built-in simulator another (`simulator(_:…)`); `PurserAssembly` takes either, so
/// every server is assembled the same way.
public struct AppStoreAccess: Sendable {
    /// The roots signed transactions and notifications must chain to.
    public var trustedRoots: [Certificate]
    /// The roots app receipts' signatures must chain to (Apple Inc.'s RSA root, the simulator's receipt root).
    public var receiptRoots: [Certificate]
    /// Apple's `verifyReceipt`, for StoreKit 1 receipts.
    public var receipts: VerifyReceiptClient
    /// The App Store Server API (receipt confirmation, reconciliation, support lookups, consumption answers); `nil`
    /// without credentials.
    public var serverAPI: AppStoreServerAPIClient?
    /// The sandbox host with the same key, asked about a receipt's transaction that production does not know (App
    /// Review's sandbox purchases reach a production server); `nil` when `serverAPI` already answers for both.
    public var sandboxServerAPI: AppStoreServerAPIClient?
    /// An App Store served by this very server process (the simulator); `nil` for Apple.
    public var hosted: HostedAppStore?

    public init(
        trustedRoots: [Certificate], receiptRoots: [Certificate] = [AppleRootCertificates.appleIncRoot],
        receipts: VerifyReceiptClient, serverAPI: AppStoreServerAPIClient?,
        sandboxServerAPI: AppStoreServerAPIClient? = nil, hosted: HostedAppStore? = nil
    ) {
        self.trustedRoots = trustedRoots
        self.receiptRoots = receiptRoots
        self.receipts = receipts
        self.serverAPI = serverAPI
        self.sandboxServerAPI = sandboxServerAPI
        self.hosted = hosted
    }
}
