import Foundation

/// The decoded payload of an App Store signed app transaction (Apple's `JWSAppTransactionDecodedPayload`, what
/// StoreKit's `AppTransaction.shared` holds), with Apple's field names: the app's download by one Apple account.
/// Purser reads it for `appTransactionId`, which a StoreKit 1 receipt does not carry.
public struct JWSAppTransaction: Codable, Hashable, Sendable {
    /// The environment, spelled as Apple spells it: "Production", "Sandbox" or "Xcode".
    public var receiptType: String?
    public var appAppleId: Int64?
    public var bundleId: String?
    public var applicationVersion: String?
    public var versionExternalIdentifier: Int64?
    public var receiptCreationDate: Int64?
    public var originalPurchaseDate: Int64?
    public var originalApplicationVersion: String?
    public var deviceVerification: String?
    public var deviceVerificationNonce: String?
    public var preorderDate: Int64?
    /// One per Apple account and app download: the same id Apple puts on every transaction of that download.
    public var appTransactionId: String?
    /// "iOS", "macOS", "tvOS" or "visionOS": where the app was first bought.
    public var originalPlatform: String?
    /// When Apple signed it (StoreKit's `AppTransaction.signedDate`); older payloads may lack it.
    public var signedDate: Int64?

    public init(bundleId: String, receiptType: String, appTransactionId: String) {
        self.bundleId = bundleId
        self.receiptType = receiptType
        self.appTransactionId = appTransactionId
    }
}

extension JWSAppTransaction: SignedPayload {
    /// The moment the chain must have been valid: `signedDate`, else `receiptCreationDate` (as Apple's libraries do).
    public var signingDate: Int64? { signedDate ?? receiptCreationDate }
    public var claimedEnvironment: String? { receiptType }
}
