import Configuration
import PurserCore

extension ServerConfiguration {
    /// `purser serve` settings from a swift-configuration reader; an absent key keeps its default. A value of the
    /// wrong type also keeps the default and goes to the reader's access reporter, which is how
    /// `load(file:environment:flags:logger:)` turns it into a `ConfigurationError` naming the key.
    ///
    /// ## Configuration keys
    /// - `host` (string, default `"127.0.0.1"`), `port` (int, default `8080`): where to listen.
    /// - `dataDirectory` (string, default `"data"`): the SQLite ledger and the simulator's files.
    /// - `bundleId` (string, default `"com.example.purser.demo"`): the app's bundle id.
    /// - `appAppleId` (int, optional): checked on production notifications when set.
    /// - `environments` (string array, default `["Production", "Sandbox"]`): accepted App Store environments.
    /// - `catalogFile` (string, optional): the product catalog.
    /// - `appStore` (string, default `"apple"`): `apple` or `simulator`.
    /// - `trustedRootFiles` (string array, default `[]`): extra DER roots.
    /// - `sharedSecret` (string, optional, **secret**): `verifyReceipt`'s app shared secret.
    /// - `verifyReceiptTimeoutSeconds` (double, default `10`).
    /// - `auth.mode` (string, default `"jwt"`): `jwt` or `development`.
    /// - `auth.jwt.algorithm` (string, default `"HS256"`), `auth.jwt.secret` (string, optional, **secret**),
    ///   `auth.jwt.publicKeyFile`, `auth.jwt.issuer`, `auth.jwt.audience` (strings, optional).
    /// - `appStoreServerAPI.issuerId`, `.keyId`, `.privateKeyFile`, `.baseURL` (strings, optional),
    ///   `appStoreServerAPI.environment` (string, default `"Production"`), `appStoreServerAPI.legacyHost` (bool,
    ///   default `false`: Apple's current `api.storekit.apple.com` hosts; `true`: the former `…itunes.apple.com`).
    /// - `receipts.verification` (string, optional): `local`, `verifyReceipt` or `local-then-verifyReceipt`; unset,
    ///   `local` when App Store Server API credentials exist (the simulator always has them), else `verifyReceipt`.
    /// - `consumption.respond`, `consumption.customerConsented`, `consumption.sampleContentProvided`,
    ///   `consumption.assumeSpent` (bools, default `false`), `consumption.version` (string, default `"v2"`, or `"v1"`), `consumption.undeliveredStatus` (string,
    ///   default `"UNDELIVERED_OTHER"`), `consumption.refundPreference.undelivered` / `.unspent` / `.partlySpent` /
    ///   `.spent` (strings, defaults `"GRANT_FULL"`, none, `"GRANT_PRORATED"`, `"DECLINE"`; `""` sends none).
    /// - `reconciliation.intervalSeconds` (double, default `600`).
    /// - `finishing.enabled` (bool, default `true`), `finishing.afterSeconds` (double, default `86400`: when the
    ///   server finishes an app-credited transaction at Apple itself), `finishing.intervalSeconds` (double, default
    ///   `60`; 0 turns the periodic job off).
    /// - `admin.token` (string, optional, **secret**): the support API's bearer token.
    /// - `database.url` (string, optional, **secret**): `postgres://user@host:port/database`; without it, the
    ///   SQLite ledger in `dataDirectory`. `database.password` (string, optional, **secret**): when the URL has none.
    /// - `simulator.url` (string, optional): with `appStore: simulator`, an external simulator's base URL.
    /// - `http.idleTimeoutSeconds` (double, default `30`): an idle keep-alive connection, or a request head that
    ///   stalls, is closed after this long. `http.requestReadTimeoutSeconds` (double, default `30`): a request whose
    ///   body has not arrived this long after its head is dropped. `http.maxConnections` (int, default `1024`): more
    ///   connections wait to be accepted. 0 turns each off. `http.drainSeconds` (double, default `5`): after SIGTERM,
    ///   how long `/ready` answers 503 `draining` while requests are still answered, before the listener closes.
    /// - `orderHint.maxAgeSeconds` (double, default `86400`): how long before the purchase an order may have been
    ///   created and still bind a transaction without Apple's `appAccountToken`.
    /// - `webhooks.endpoints` (array of objects, default none): each `url` (string), `secret` (string, **secret**)
    ///   or `secrets` (string array, **secret**: every one signs), `events` (string array, optional: all types),
    ///   `ordered` (bool, default `false`: one user's events one at a time, in `sequence` order).
    ///   `webhooks.retrySeconds` (double array, optional), `webhooks.timeoutSeconds` (double, default `10`),
    ///   `webhooks.concurrency` (int, default `16`), `webhooks.pollIntervalSeconds` (double, default `1`),
    ///   `webhooks.claimSeconds` (double, default `60`).
    /// - `metrics.port` (int, optional): `GET /metrics` (Prometheus text format) on this port of `host`; none: no
    ///   metrics endpoint. `metrics.token` (string, optional, **secret**): the bearer token that listener requires.
    /// - `tracing.otlp.endpoint` (string, optional): an OTLP/HTTP collector that `serve` exports spans to; none: no
    ///   tracing. `tracing.sampleRatio` (double, `1`), `tracing.serviceName` (string, `purser`),
    ///   `tracing.environment` (string, optional: `deployment.environment.name`).
    /// - `console.operators` (array of objects, default none): each `name` and `passwordHash` (from `purser console
    ///   hash-password`); `console.secureCookies` (bool, default `false`), `console.sessionMinutes` (double, `480`),
    ///   `console.goodwillLimit` (int, `1000`: the most one goodwill credit gives per currency; 0 turns it off).
    /// - `refunds.allowNegativeBalance` (bool, default `true`): whether a refund may take a balance below zero; when
    ///   false it revokes down to zero and records the shortfall.
    /// - `wallet.clientSpend` (bool, default `false`): whether the app may spend from its own user's wallet with
    ///   `POST /v1/wallet/spend` (a game with no backend); off, that route answers 403 `client_spend_disabled`.
    /// - `retention.days` (int, default `90`; 0 keeps everything), `retention.intervalSeconds` (double, default
    ///   `3600`): how long delivered webhook events keep their payload and processed notifications their record.
    /// - `backup.intervalSeconds` (double, default `0`: none), `backup.directory` (string, optional: `backups` in
    ///   `dataDirectory`), `backup.keep` (int, default `7`): `serve`'s own checked copies of a SQLite ledger.
    /// - `erasure.key` (string, optional, **secret**): the HMAC key of erased users' pseudonyms; none: one derived
    ///   from `admin.token`.
    /// - `xcode.certificateFile` (string, optional): Xcode's StoreKit testing certificate (DER), for development:
    ///   payloads it signs for environment `Xcode` are trusted; needs `Xcode` in `environments`.
    /// - `log.format` (string, default `"text"`): `text` or `json` (one JSON object per line, `JSONLogHandler`).
    /// - `apps` (array of objects, default none: the top-level keys are the one app): a studio's apps, each
    ///   `bundleId` (required), `appAppleId`, `environments`, `catalogFile`, `sharedSecret` (**secret**),
    ///   `appStoreServerAPI.*`, `consumption.*`, `refunds.*` and `webhooks.endpoints`; a key an entry leaves out
    ///   takes the top-level value (`ServerConfiguration.App`).
    ///
    /// ## Environment variables
    /// `load` reads every key from the environment as `PURSER_` followed by swift-configuration's
    /// `EnvironmentVariablesProvider` form of the key: components joined by `_`, a camelCase word boundary becomes
    /// `_`, everything upper-cased. So `port` is `PURSER_PORT`, `auth.jwt.secret` is `PURSER_AUTH_JWT_SECRET`,
    /// `dataDirectory` is `PURSER_DATA_DIRECTORY`, `appStoreServerAPI.privateKeyFile` is
    /// `PURSER_APP_STORE_SERVER_API_PRIVATE_KEY_FILE`, and a nested key such as `database.url` is
    /// `PURSER_DATABASE_URL`. Arrays are comma-separated (`PURSER_ENVIRONMENTS=Production,Sandbox`); booleans
    /// are `true`/`false`/`yes`/`no`/`1`/`0`. The older names `PURSER_JWT_SECRET` (`auth.jwt.secret`) and
    /// `PURSER_APPSTORE_SHARED_SECRET` (`sharedSecret`) still work, below the new names; `PURSER_ADMIN_TOKEN`
    /// is `admin.token` under both schemes.
    public init(reader: ConfigReader) {
        self.init()
        host = reader.string(forKey: "host", default: host)
        port = reader.int(forKey: "port", default: port)
        dataDirectory = reader.string(forKey: "dataDirectory", default: dataDirectory)
        bundleId = reader.string(forKey: "bundleId", default: bundleId)
        appAppleId = reader.int(forKey: "appAppleId").map(Int64.init)
        environments = reader.stringArray(forKey: "environments", as: AppStoreEnvironment.self, default: environments)
        catalogFile = reader.string(forKey: "catalogFile")
        appStore = reader.string(forKey: "appStore", as: AppStoreMode.self, default: appStore)
        trustedRootFiles = reader.stringArray(forKey: "trustedRootFiles", default: trustedRootFiles)
        sharedSecret = reader.string(forKey: "sharedSecret", isSecret: true)
        verifyReceiptTimeoutSeconds = reader.double(
            forKey: "verifyReceiptTimeoutSeconds", default: verifyReceiptTimeoutSeconds)
        auth = Auth(reader: reader.scoped(to: "auth"))
        appStoreServerAPI = ServerAPI(reader: reader.scoped(to: "appStoreServerAPI"))
        receipts.verification = reader.string(forKey: "receipts.verification", as: ReceiptVerification.self)
        consumption = Consumption(reader: reader.scoped(to: "consumption"))
        reconciliation = Reconciliation(reader: reader.scoped(to: "reconciliation"))
        finishing.enabled = reader.bool(forKey: "finishing.enabled", default: finishing.enabled)
        finishing.afterSeconds = reader.double(forKey: "finishing.afterSeconds", default: finishing.afterSeconds)
        finishing.intervalSeconds = reader.double(
            forKey: "finishing.intervalSeconds", default: finishing.intervalSeconds)
        admin = Admin(reader: reader.scoped(to: "admin"))
        database.url = reader.string(forKey: "database.url", isSecret: true)
        database.password = reader.string(forKey: "database.password", isSecret: true)
        simulator.url = reader.string(forKey: "simulator.url")
        simulator.storekitFile = reader.string(forKey: "simulator.storekitFile")
        http.idleTimeoutSeconds = reader.double(forKey: "http.idleTimeoutSeconds", default: http.idleTimeoutSeconds)
        http.requestReadTimeoutSeconds = reader.double(
            forKey: "http.requestReadTimeoutSeconds", default: http.requestReadTimeoutSeconds)
        http.maxConnections = reader.int(forKey: "http.maxConnections", default: http.maxConnections)
        http.drainSeconds = reader.double(forKey: "http.drainSeconds", default: http.drainSeconds)
        http.trustedProxies = reader.stringArray(forKey: "http.trustedProxies", default: http.trustedProxies)
        http.threads = reader.int(forKey: "http.threads", default: http.threads)
        orderHint.maxAgeSeconds = reader.double(forKey: "orderHint.maxAgeSeconds", default: orderHint.maxAgeSeconds)
        webhooks = Webhooks(reader: reader.scoped(to: "webhooks"))
        metrics = Metrics(reader: reader.scoped(to: "metrics"))
        tracing = Tracing(reader: reader.scoped(to: "tracing"))
        console = Console(reader: reader.scoped(to: "console"))
        refunds = Refunds(reader: reader.scoped(to: "refunds"))
        wallet = Wallet(reader: reader.scoped(to: "wallet"))
        retention = Retention(reader: reader.scoped(to: "retention"))
        backup = Backup(reader: reader.scoped(to: "backup"))
        erasure.key = reader.string(forKey: "erasure.key", isSecret: true)
        xcode = Xcode(reader: reader.scoped(to: "xcode"))
        log = Log(reader: reader.scoped(to: "log"))
        apps = Self.apps(reader: reader, base: self)
    }

    /// The keys whose values are secrets, for provider-level marking and redaction.
    static var secretKeys: Set<String> {
        [
            "sharedSecret", "auth.jwt.secret", "admin.token", "metrics.token", "database.url", "database.password",
            "erasure.key",
        ]
    }

    /// Whether the dotted `key` (`webhooks.endpoints.0.secrets`) holds a secret: `secretKeys`, a webhook endpoint's
    /// `secret` or `secrets`, a console operator's `passwordHash`. The file's provider marks these secret, and
    /// `effectiveJSON()` redacts them.
    static func isSecretKey(_ key: String) -> Bool {
        secretKeys.contains(key) || isWebhookSecretKey(key) || Console.isOperatorSecretKey(key) || isAppSecretKey(key)
    }
}

extension ServerConfiguration.Auth {
    /// `mode` and `jwt.*`, scoped to `auth`.
    public init(reader: ConfigReader) {
        self.init()
        mode = reader.string(forKey: "mode", as: Mode.self, default: mode)
        jwt = ServerConfiguration.JWT(reader: reader.scoped(to: "jwt"))
    }
}

extension ServerConfiguration.JWT {
    /// `algorithm`, `secret` (secret), `publicKeyFile`, `issuer`, `audience`, scoped to `auth.jwt`.
    public init(reader: ConfigReader) {
        self.init()
        algorithm = reader.string(forKey: "algorithm", default: algorithm)
        secret = reader.string(forKey: "secret", isSecret: true)
        publicKeyFile = reader.string(forKey: "publicKeyFile")
        issuer = reader.string(forKey: "issuer")
        audience = reader.string(forKey: "audience")
    }
}

extension ServerConfiguration.ServerAPI {
    /// `issuerId`, `keyId`, `privateKeyFile`, `environment`, `baseURL`, `legacyHost`, scoped to `appStoreServerAPI`;
    /// an absent key keeps `base`'s value (an app of `apps` shares the top-level issuer and key).
    public init(reader: ConfigReader, base: Self = .init()) {
        self = base
        issuerId = reader.string(forKey: "issuerId") ?? issuerId
        keyId = reader.string(forKey: "keyId") ?? keyId
        privateKeyFile = reader.string(forKey: "privateKeyFile") ?? privateKeyFile
        environment = reader.string(forKey: "environment", as: AppStoreEnvironment.self, default: environment)
        baseURL = reader.string(forKey: "baseURL") ?? baseURL
        legacyHost = reader.bool(forKey: "legacyHost", default: legacyHost)
    }
}

extension ServerConfiguration.Consumption {
    /// `respond`, `customerConsented`, `version`, `sampleContentProvided`, `assumeSpent`, `undeliveredStatus` and
    /// `refundPreference.*`, scoped to `consumption`. An empty refund preference sends none; an absent key keeps
    /// `base`'s value.
    public init(reader: ConfigReader, base: Self = .init()) {
        self = base
        respond = reader.bool(forKey: "respond", default: respond)
        customerConsented = reader.bool(forKey: "customerConsented", default: customerConsented)
        version = reader.string(forKey: "version", as: ConsumptionResponder.Version.self, default: version)
        sampleContentProvided = reader.bool(forKey: "sampleContentProvided", default: sampleContentProvided)
        assumeSpent = reader.bool(forKey: "assumeSpent", default: assumeSpent)
        undeliveredStatus = reader.string(forKey: "undeliveredStatus", default: undeliveredStatus)
        func rule(_ key: String, _ fallback: String?) -> String? {
            guard let value = reader.string(forKey: ConfigKey("refundPreference.\(key)")) else { return fallback }
            return value.isEmpty ? nil : value
        }
        refundPreference.undelivered = rule("undelivered", refundPreference.undelivered)
        refundPreference.unspent = rule("unspent", refundPreference.unspent)
        refundPreference.partlySpent = rule("partlySpent", refundPreference.partlySpent)
        refundPreference.spent = rule("spent", refundPreference.spent)
    }
}

extension ServerConfiguration.Reconciliation {
    /// `intervalSeconds`, scoped to `reconciliation`.
    public init(reader: ConfigReader) {
        self.init()
        intervalSeconds = reader.double(forKey: "intervalSeconds", default: intervalSeconds)
    }
}

extension ServerConfiguration.Admin {
    /// `token` (secret), scoped to `admin`.
    public init(reader: ConfigReader) {
        self.init()
        token = reader.string(forKey: "token", isSecret: true)
    }
}
