import PurserCore
import X509

/// One app of a resolved configuration (`ResolvedConfiguration.apps`): its settings and what they name, each read and
/// checked once. `PurserAssembly(app:store:appStore:logger:)` builds the app's server from exactly these values.
public struct ResolvedApp: Sendable {
    /// The app's settings: the studio's, with the app's keys in place of the top-level ones
    /// (`ServerConfiguration.settings(for:)`).
    public let settings: ServerConfiguration
    /// Its products, read from its `catalogFile` (or given to `resolve(catalogs:)`).
    public let catalog: ProductCatalog
    /// Its game backend's webhook endpoints, checked.
    public let webhookEndpoints: [WebhookEndpoint]
    /// Where its ledger lives (`ServerConfiguration.ledgerLocation()`).
    public let ledger: LedgerLocation
    /// How its StoreKit 1 receipts are confirmed: `receipts.verification`, or its default for its App Store.
    public let receiptVerification: ServerConfiguration.ReceiptVerification
    /// Its `consumption` settings as the responder's policy.
    let consumptionPolicy: ConsumptionResponder.Policy
    /// Xcode's StoreKit testing certificate, when `xcode.certificateFile` trusts it for this app.
    let xcodeCertificate: Certificate?
    /// What every app of the studio shares.
    let studio: ResolvedConfiguration.Studio

    /// The app's bundle id.
    public var bundleId: String { settings.bundleId }
}
