import Foundation
import PurserCore

/// `purser serve` settings; every field has the default shown. `load(file:environment:flags:logger:)` reads them
/// with swift-configuration from the command line, then the environment, then a JSON file, then these defaults;
/// `init(reader:)` lists the keys.
///
/// ```json
/// {
///   "host": "127.0.0.1", "port": 8080,
///   "dataDirectory": "data",                 // the SQLite ledger and the simulator's CA; relative to this file
///   "bundleId": "com.example.purser.demo",
///   "appAppleId": null,                      // checked on production notifications when set
///   "environments": ["Production", "Sandbox"],
///   "catalogFile": "catalog.json",           // relative to this file
///   "appStore": "apple",                     // or "simulator": trust the built-in simulator (never in production)
///   "trustedRootFiles": [],                  // extra DER roots besides Apple Root CA - G3
///   "sharedSecret": null,                    // verifyReceipt's app shared secret (secret; prefer the environment)
///   "verifyReceiptTimeoutSeconds": 10,
///   "auth": {"mode": "jwt", "jwt": {"algorithm": "HS256", "secret": "…", "publicKeyFile": null,
///            "issuer": null, "audience": null}},
///   "appStoreServerAPI": {"issuerId": "…", "keyId": "…", "privateKeyFile": "AuthKey_KEYID.p8",
///                         "environment": "Production", "baseURL": null,    // not needed with the simulator
///                         "legacyHost": false},     // true: api.storekit.itunes.apple.com, Apple's former host
///   "receipts": {"verification": null},   // local, verifyReceipt or local-then-verifyReceipt; null: local when
///                                         // the App Store Server API is configured, else verifyReceipt
///   "consumption": {"respond": false, "customerConsented": false, "version": "v2",  // answer CONSUMPTION_REQUEST
///                   "sampleContentProvided": false, "assumeSpent": false, "undeliveredStatus": "UNDELIVERED_OTHER",
///                   "refundPreference": {"undelivered": "GRANT_FULL", "unspent": null,
///                                        "partlySpent": "GRANT_PRORATED", "spent": "DECLINE"}},
///   "reconciliation": {"intervalSeconds": 600},                              // 0 turns the periodic run off
///   "finishing": {"enabled": true, "afterSeconds": 86400, "intervalSeconds": 60},  // Finish Transaction at Apple
///   "admin": {"token": null},                                                // the support API's bearer token
///   "http": {"idleTimeoutSeconds": 30, "requestReadTimeoutSeconds": 30, "maxConnections": 1024,
///            "drainSeconds": 5,                 // after SIGTERM: /ready 503 draining, requests still answered
///            "trustedProxies": []},             // CIDRs whose X-Forwarded-For names the client
///   "orderHint": {"maxAgeSeconds": 86400},   // how old an order may be and still bind a token-less transaction
///   "database": {"url": null, "password": null},   // postgres://user@host:port/db; none: SQLite in dataDirectory
///   "simulator": {"url": null,                     // with appStore simulator: an external simulator's base URL
///                 "storekitFile": null},           // or a .storekit file the built-in one sells from
///   "webhooks": {"endpoints": [{"url": "https://game.example.com/purser", "secret": "whsec_…",
///                               "events": ["transaction.credited"],    // events: all types when absent
///                               "ordered": false}],   // true: one user's events one at a time, in sequence order
///                "retrySeconds": null, "timeoutSeconds": 10, "concurrency": 16, "pollIntervalSeconds": 1,
///                "claimSeconds": 60},
///   "metrics": {"port": null, "token": null},  // GET /metrics (Prometheus) on its own port, optionally behind a token
///   "tracing": {"otlp": {"endpoint": null},   // OTLP/HTTP collector (http://collector:4318): spans; null: none
///               "sampleRatio": 1, "serviceName": "purser", "environment": null},
///   "console": {"operators": [{"name": "li", "passwordHash": "$scrypt$…"}], "secureCookies": false,
///               "sessionMinutes": 480},         // the support console at /console, with admin.token
///   "refunds": {"allowNegativeBalance": true},  // false: a refund takes a balance down to zero, not below
///   "wallet": {"clientSpend": false},   // true: the app may spend its user's currency (POST /v1/wallet/spend)
///   "retention": {"days": 90, "intervalSeconds": 3600},  // delivered events' payloads, old notifications; 0: keep
///   "backup": {"intervalSeconds": 0, "directory": null, "keep": 7},  // SQLite: serve's own backups (0: none)
///   "erasure": {"key": null},   // the key of erased users' pseudonyms (secret); none: derived from admin.token
///   "xcode": {"certificateFile": null},    // development: trust Xcode's StoreKit testing (needs "Xcode" in environments)
///   "log": {"format": "text"},   // or "json": one JSON object per line on standard error
///   "apps": []   // a studio: [{"bundleId": "…", "catalogFile": "…", "webhooks": {"endpoints": […]}, …}, …]
/// }
/// ```
/// Secrets: `auth.jwt.secret`, `sharedSecret`, `admin.token`, `metrics.token`, `database.url`, `database.password`,
/// `erasure.key` and the webhook
/// endpoints' `secret` / `secrets`; prefer the `PURSER_JWT_SECRET`, `PURSER_APPSTORE_SHARED_SECRET`,
/// `PURSER_ADMIN_TOKEN` and `PURSER_WEBHOOKS_ENDPOINTS_0_SECRET` environment variables, which override them.
public struct ServerConfiguration: Sendable, Encodable {
    public enum AppStoreMode: String, Sendable, CaseIterable, Encodable {
        case apple
        case simulator
    }

    public struct Auth: Sendable, Encodable {
        public enum Mode: String, Sendable, CaseIterable, Encodable {
            case jwt
            case development
        }
        public var mode: Mode = .jwt
        public var jwt: JWT = .init()

        public init() {}
    }

    /// App Store Server API credentials (App Store Connect → Users and Access → Integrations → In-App Purchase).
    public struct ServerAPI: Sendable, Encodable {
        public var issuerId: String?
        public var keyId: String?
        /// The `.p8` private key. Secret.
        public var privateKeyFile: String?
        /// "Production" or "Sandbox".
        public var environment: AppStoreEnvironment = .production
        /// Overrides the environment's base URL (for a test double).
        public var baseURL: String?
        /// Use Apple's former hosts (`api.storekit.itunes.apple.com`, `api.storekit-sandbox.itunes.apple.com`)
        /// instead of the current `api.storekit.apple.com` ones.
        public var legacyHost = false
        public init() {}
    }

    /// How a StoreKit 1 app receipt is confirmed.
    public enum ReceiptVerification: String, Sendable, CaseIterable, Encodable {
        /// The receipt's PKCS #7 signature checked locally (to Apple Inc.'s root), then each in-app transaction
        /// confirmed with the App Store Server API's Get Transaction Info and settled as a StoreKit 2 transaction.
        /// Needs App Store Server API credentials.
        case local
        /// Apple's deprecated `verifyReceipt` endpoint confirms the receipt and lists its transactions.
        case verifyReceipt
        /// The signature checked locally first (a forged receipt is refused without asking Apple), then
        /// `verifyReceipt` as above: for apps without Server API credentials, or as a step between the two.
        case localThenVerifyReceipt = "local-then-verifyReceipt"
    }

    public struct Receipts: Sendable, Encodable {
        /// `nil`: `local` when App Store Server API credentials exist (the simulator always has them), else
        /// `verifyReceipt`.
        public var verification: ReceiptVerification?
        public init() {}
    }

    public struct Consumption: Sendable, Encodable {
        /// Whether to answer Apple's CONSUMPTION_REQUEST with Send Consumption Information.
        public var respond = false
        /// Whether the customer consented to sharing consumption data. Apple refuses an answer without consent, so
        /// none is sent then (the notification records why).
        public var customerConsented = false
        /// `v2` (`PUT /inApps/v2/transactions/consumption/{id}`, Apple's current body) or `v1` (the older one).
        public var version: ConsumptionResponder.Version = .v2
        /// v2 `sampleContentProvided`: whether the app offered a free sample or trial before the purchase.
        public var sampleContentProvided = false
        /// Count every delivered grant as all spent (a game whose own backend spends the currency); otherwise the
        /// owner's wallet balance says how much of it is left.
        public var assumeSpent = false
        /// v2 `deliveryStatus` for a transaction Purser never delivered (unknown, unbound, rejected, revoked).
        public var undeliveredStatus = "UNDELIVERED_OTHER"
        /// v2 `refundPreference` by what the ledger knows; `nil` sends none.
        public var refundPreference = ConsumptionResponder.RefundRules()
        public init() {}
    }

    public struct Reconciliation: Sendable, Encodable {
        /// Seconds between runs inside `serve`; 0 turns the periodic run off (`purser reconcile` still works).
        public var intervalSeconds: Double = 600
        public init() {}
    }

    /// Telling Apple a credited transaction is finished (Finish Transaction) and writing the owner's token to Apple's
    /// record (Set App Account Token), both best effort and retried by a periodic job (`AppleFollowUps`).
    public struct Finishing: Sendable, Encodable {
        /// Off: Purser never calls Finish Transaction nor Set App Account Token.
        public var enabled = true
        /// How long after the app's own submission was credited the server finishes the transaction at Apple itself,
        /// in case the app never did (credits by notifications, reconciliation and support are finished at once).
        public var afterSeconds: Double = 86_400
        /// Seconds between the periodic job's runs inside `serve`; 0 turns it off.
        public var intervalSeconds: Double = 60
        public init() {}
    }

    /// Where the ledger lives: PostgreSQL when `url` is set (several replicas can share it), otherwise the embedded
    /// SQLite file `purser.sqlite` in `dataDirectory`.
    public struct Database: Sendable, Encodable {
        /// `postgres://user@host:port/database`. Secret (it may carry a password); prefer `PURSER_DATABASE_URL`.
        public var url: String?
        /// The database user's password, when the URL carries none. Secret; prefer `PURSER_DATABASE_PASSWORD`.
        public var password: String?
        public init() {}
    }

    /// An App Store simulator that runs outside this server (`purser appstore-sim`, or a chaos harness), reached
    /// over HTTP, with `appStore: simulator`. Without `url` the server hosts its own simulator.
    public struct Simulator: Sendable, Encodable {
        /// The simulator's base URL, e.g. `http://127.0.0.1:8081`.
        public var url: String?
        /// An Xcode StoreKit configuration file (`.storekit`) the simulator inside this server sells from: only its
        /// products, with its names and prices (as `purser appstore-sim --storekit-config`).
        public var storekitFile: String?
        public init() {}
    }

    /// Limits on client connections, so slow or idle clients cannot pin file descriptors.
    public struct HTTP: Sendable, Encodable {
        /// Seconds an idle keep-alive connection stays open, and the time a client has to finish sending a request's
        /// head (Hummingbird's idle timeout). 0 turns it off.
        public var idleTimeoutSeconds: Double = 30
        /// Seconds from a request's head to the end of its body; a slower request is dropped unanswered. 0 turns it
        /// off.
        public var requestReadTimeoutSeconds: Double = 30
        /// The most connections open at once; more wait in the listen backlog until one closes. 0 means no bound.
        public var maxConnections = 1024
        /// Seconds after SIGTERM during which `/ready` answers 503 `draining` while every request is still answered
        /// (a load balancer's time to take the replica out), before the listener closes. 0 closes it at once.
        public var drainSeconds: Double = 5
        /// The proxies (CIDRs) whose `X-Forwarded-For` is believed: the console's sign-in throttle counts the
        /// client it names. Empty: the peer is the client.
        public var trustedProxies: [String] = []
        /// Event-loop threads that serve HTTP. 0: one per core (SwiftNIO's shared group).
        public var threads = 0
        public init() {}
    }

    /// The owner rule without Apple's token (`SubmissionRules.owner(of:order:)`).
    public struct OrderHint: Sendable, Encodable {
        /// How long before the purchase the submitter's own waiting order may have been created and still count for
        /// a transaction without an `appAccountToken`; an older order does not bind it.
        public var maxAgeSeconds: Double = Submission.defaultOrderHintMaxAge
        public init() {}
    }

    public struct Admin: Sendable, Encodable {
        /// The admin API's bearer token. Secret; prefer `PURSER_ADMIN_TOKEN`.
        public var token: String?
        public init() {}
    }

    /// How an erased user's id is replaced (`DELETE /admin/v1/users/{id}`, `purser users erase`).
    public struct Erasure: Sendable, Encodable {
        /// The HMAC key of the pseudonyms. Secret. None: a key derived from `admin.token`.
        public var key: String?
        public init() {}
    }

    public struct JWT: Sendable, Encodable {
        /// HS256, ES256 or RS256.
        public var algorithm: String = "HS256"
        /// The HS256 secret. Secret: prefer `PURSER_JWT_SECRET`.
        public var secret: String?
        /// A PEM public key for ES256 / RS256.
        public var publicKeyFile: String?
        public var issuer: String?
        public var audience: String?
        public init() {}
    }

    public var host = "127.0.0.1"
    public var port = 8080
    public var dataDirectory = "data"
    public var bundleId = "com.example.purser.demo"
    public var appAppleId: Int64?
    public var environments: [AppStoreEnvironment] = [.production, .sandbox]
    public var catalogFile: String?
    public var appStore: AppStoreMode = .apple
    public var trustedRootFiles: [String] = []
    /// The app's shared secret for `verifyReceipt`. Secret.
    public var sharedSecret: String?
    public var verifyReceiptTimeoutSeconds: Double = 10
    public var auth = Auth()
    public var appStoreServerAPI = ServerAPI()
    public var receipts = Receipts()
    public var consumption = Consumption()
    public var reconciliation = Reconciliation()
    public var finishing = Finishing()
    public var admin = Admin()
    public var http = HTTP()
    public var orderHint = OrderHint()
    public var database = Database()
    public var simulator = Simulator()
    public var webhooks = Webhooks()
    public var metrics = Metrics()
    public var tracing = Tracing()
    public var console = Console()
    public var refunds = Refunds()
    public var wallet = Wallet()
    public var retention = Retention()
    public var backup = Backup()
    public var erasure = Erasure()
    public var xcode = Xcode()
    /// How `serve` writes its log (`log.format`).
    public var log = Log()
    /// A studio's apps; empty: the top-level keys describe the one app (`servedApps`).
    public var apps: [App] = []

    public init() {}
}

/// A configuration that cannot be used; the message names the key or file.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    /// Every problem found, one line each (most errors have one).
    public var problems: [String]
    public var description: String { problems.joined(separator: "\n") }
    public init(_ description: String) { problems = [description] }
    public init(_ problems: [String]) { self.problems = problems }
}
