import AppStoreVerification
import AsyncHTTPClient
import Foundation
import Logging
import PurserCore
import PurserStorage
import X509

/// One Purser server, assembled in one place: the services over the ledger and the App Store, and (through
/// `application(…)`) the HTTP application that serves them with every long-lived worker. `purser serve`, `chaos`,
/// `bench`, the support commands and every test build their server here, so each runs exactly what `serve` runs.
public struct PurserAssembly: Sendable {
    public let configuration: ServerConfiguration
    public let catalog: ProductCatalog
    public let store: any LedgerStore
    public let appStore: AppStoreAccess
    public let orders: OrderService
    /// Spends and deposits (the game's backend, support's goodwill credits).
    public let wallets: WalletService
    /// A user's export and erasure.
    public let users: UserDataService
    /// The admin API's keys (`purser keys`, `/admin/v1/keys`).
    public let apiKeys: APIKeyService
    public let submissions: SubmissionService
    public let notifications: NotificationService
    public let support: SupportService
    /// Reconciliation with the App Store Server API; `nil` without its credentials.
    public let reconciler: Reconciler?
    /// Finish Transaction and Set App Account Token at Apple; `nil` without Server API credentials or with
    /// `finishing.enabled` false.
    public let appleFollowUps: AppleFollowUps?
    /// Webhooks to the game's backend: the operators' side (list, replay, test).
    public let webhooks: WebhookService
    /// How StoreKit 1 receipts are confirmed: `receipts.verification`, or its default for this App Store.
    public let receiptVerification: ServerConfiguration.ReceiptVerification
    let authenticator: any Authenticator
    let logger: Logger
    let now: @Sendable () -> Date
    let webhookJitter: WebhookJitter
    let webhookTransport: (any WebhookTransport)?
    let consoleOperators: [String: (hash: PasswordHash, role: ConsoleRole)]
    /// `http.trustedProxies`, checked: whose `X-Forwarded-For` names the client.
    let trustedProxies: TrustedProxies
    /// Xcode's StoreKit testing certificate, when `xcode.certificateFile` trusts it (development only).
    let xcodeCertificate: Certificate?

    /// Builds every service of one app from its resolved values (`ServerConfiguration.resolve`), checking nothing
    /// again: `serve`, `chaos` and `bench` build their servers here (through `PurserStudio.assemble`).
    /// - Parameters:
    ///   - app: the app's settings, catalog, webhook endpoints and the studio's shared values, resolved.
    ///   - store: the app's ledger (`app.ledger`, opened), migrated.
    ///   - appStore: how Apple is reached: its endpoints, or the simulator hosted in the server.
    ///   - logger: the server's logger.
    ///   - now: the clock of every decision, order and audit record (a chaos run moves it).
    ///   - webhookSeed: seeds the webhook retries' jitter (a chaos run's seed); `nil`: the system's randomness.
    ///   - webhookTransport: how the delivery worker posts (tests count and break posts); `nil`: AsyncHTTPClient.
    ///   - keys: the studio's API keys (`PurserStudio`: the first app's ledger holds them); `nil`: this ledger's.
    public init(
        app: ResolvedApp, store: any LedgerStore, appStore: AppStoreAccess, logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() }, webhookSeed: UInt64? = nil,
        webhookTransport: (any WebhookTransport)? = nil, keys: APIKeyService? = nil
    ) {
        let configuration = app.settings
        self.configuration = configuration
        self.catalog = app.catalog
        self.store = store
        self.appStore = appStore
        self.logger = logger
        self.now = now
        webhookJitter = WebhookJitter(seed: webhookSeed)
        self.webhookTransport = webhookTransport
        consoleOperators = app.studio.consoleOperators
        trustedProxies = app.studio.trustedProxies
        xcodeCertificate = app.xcodeCertificate
        webhooks = WebhookService(
            store: store, endpoints: app.webhookEndpoints,
            transport: webhookTransport
                ?? HTTPClientWebhookTransport(client: HTTPClientWebhookTransport.operatorsClient),
            timeout: .milliseconds(Int64(configuration.webhooks.timeoutSeconds * 1000)), now: now)
        authenticator = app.studio.authenticator
        receiptVerification = app.receiptVerification
        let catalog = app.catalog
        let receiptVerifier = AppReceiptVerifier(configuration: .init(trustedRoots: appStore.receiptRoots), now: now)
        let localReceipts: SubmissionService.LocalReceiptCheck? =
            switch receiptVerification {
            case .verifyReceipt: nil
            case .localThenVerifyReceipt: .init(verifier: receiptVerifier, serverAPI: nil)
            case .local:
                .init(
                    verifier: receiptVerifier, serverAPI: appStore.serverAPI,
                    sandboxServerAPI: appStore.sandboxServerAPI)
            }
        let followUps =
            configuration.finishing.enabled
            ? appStore.serverAPI.map { api in
                AppleFollowUps(
                    store: store, api: api, sandboxAPI: appStore.sandboxServerAPI,
                    clientGrace: configuration.finishing.afterSeconds, logger: logger, now: now)
            } : nil
        appleFollowUps = followUps
        let submissions = SubmissionService(
            verifier: SignedDataVerifier(
                configuration: .init(trustedRoots: appStore.trustedRoots, xcodeCertificate: xcodeCertificate)),
            receipts: appStore.receipts, localReceipts: localReceipts,
            claims: ClaimsPolicy(
                bundleID: configuration.bundleId, environments: Set(configuration.environments),
                appAppleID: configuration.appAppleId),
            catalog: catalog, store: store, orderHintMaxAge: configuration.orderHint.maxAgeSeconds,
            followUps: followUps,
            allowNegativeBalance: configuration.refunds.allowNegativeBalance, now: now)
        let consumption = appStore.serverAPI.flatMap { api in
            configuration.consumption.respond
                ? ConsumptionResponder.viaServerAPI(api, store: store, policy: app.consumptionPolicy)
                : nil
        }
        let notifications = NotificationService(
            submissions: submissions, consumption: consumption, logger: logger,
            now: now)
        self.submissions = submissions
        self.notifications = notifications
        orders = OrderService(catalog: catalog, store: store, now: now)
        wallets = WalletService(store: store, clientSpend: configuration.wallet.clientSpend, now: now)
        users = UserDataService(
            store: store, erasureKey: configuration.erasure.key, adminToken: configuration.admin.token, now: now)
        apiKeys = keys ?? APIKeyService(store: store, apps: configuration.servedApps.map(\.bundleId), now: now)
        support = SupportService(
            submissions: submissions, apple: appStore.serverAPI.map(SupportService.AppleLookup.init))
        reconciler = appStore.serverAPI.map {
            Reconciler(api: $0, sandboxAPI: appStore.sandboxServerAPI, notifications: notifications, now: now)
        }
    }

    /// Builds every service of one app from `configuration` (that app's settings, as `settings(for:)` makes them),
    /// resolved here with `catalog` and `appStore` (`ServerConfiguration.resolve`), for a server built in code.
    /// - Throws: `ConfigurationError` with every problem of the configuration (for example JWT mode without a key,
    ///   or a webhook endpoint with a malformed URL or secret).
    public init(
        configuration: ServerConfiguration, catalog: ProductCatalog, store: any LedgerStore,
        appStore: AppStoreAccess, logger: Logger, now: @escaping @Sendable () -> Date = { Date() },
        webhookSeed: UInt64? = nil, webhookTransport: (any WebhookTransport)? = nil, keys: APIKeyService? = nil
    ) throws(ConfigurationError) {
        let resolved = try configuration.resolve(.init(catalogs: [catalog], appStores: [appStore], oneApp: true))
        self.init(
            app: resolved.home, store: store, appStore: appStore, logger: logger, now: now, webhookSeed: webhookSeed,
            webhookTransport: webhookTransport, keys: keys)
    }

    /// The lease every reconciliation run holds, whoever runs it (a replica's periodic run, `purser reconcile`).
    public func reconciliationLease(holder: String) -> LeasedWork {
        LeasedWork("reconciliation", holder: holder, term: .seconds(60), store: store, now: now)
    }

    /// The lease every sweep of expired wallet holds holds.
    public func holdExpiryLease(holder: String) -> LeasedWork {
        LeasedWork("wallet-holds", holder: holder, term: .seconds(60), store: store, now: now)
    }

    /// The lease every retention pass holds, so one replica prunes at a time.
    public func retentionLease(holder: String) -> LeasedWork {
        LeasedWork("retention", holder: holder, term: .seconds(60), store: store, now: now)
    }

    /// The lease the dashboard's queue sampler holds, so replicas on one ledger take one sample per interval.
    public func queueSamplerLease(holder: String) -> LeasedWork {
        LeasedWork("queue-sampler", holder: holder, term: .seconds(60), store: store, now: now)
    }

    /// The lease every backup `serve` takes holds, so replicas on one ledger take one copy per interval.
    public func backupLease(holder: String) -> LeasedWork {
        LeasedWork("backup", holder: holder, term: .seconds(60), store: store, now: now)
    }

    /// The lease every run of the Apple follow-ups holds, so one replica calls Apple at a time.
    public func appleFollowUpLease(holder: String) -> LeasedWork {
        LeasedWork("apple-follow-ups", holder: holder, term: .seconds(60), store: store, now: now)
    }

    /// What `serve` says at start when `admin.token` is set.
    static let legacyTokenNotice =
        "admin.token is the legacy form of an admin API key: it holds every scope (*) for every app; "
        + "make keys that can do only their job with purser keys create"

    /// The admin API's legacy bearer token, when one is configured (a secret).
    var adminToken: String? { configuration.admin.token.flatMap { $0.isEmpty ? nil : $0 } }

    /// Lines logged as warnings at start: a hosted App Store, development authentication, Xcode's certificate.
    var startupWarnings: [String] {
        (appStore.hosted.map { [$0.warning] } ?? [])
            + (authenticator is DevelopmentAuthenticator ? [authenticator.announcement] : [])
            + (xcodeCertificate.map { [configuration.xcodeWarning($0)] } ?? [])
    }
}
