import Foundation
import PurserCore

/// `purser serve` settings, read from a JSON file; every key is optional and has the default shown.
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
///                         "environment": "Production", "baseURL": null},   // not needed with the simulator
///   "consumption": {"respond": false, "customerConsented": false},           // answer CONSUMPTION_REQUEST
///   "reconciliation": {"intervalSeconds": 600},                              // 0 turns the periodic run off
///   "admin": {"token": null}                                                 // the support API's bearer token
/// }
/// ```
/// Secrets: `auth.jwt.secret`, `sharedSecret` and `admin.token`; prefer the `PURSER_JWT_SECRET`,
/// `PURSER_APPSTORE_SHARED_SECRET` and `PURSER_ADMIN_TOKEN` environment variables, which override them.
public struct ServerConfiguration: Sendable, Decodable {
    public enum AppStoreMode: String, Sendable, Decodable {
        case apple
        case simulator
    }

    public struct Auth: Sendable, Decodable {
        public enum Mode: String, Sendable, Decodable {
            case jwt
            case development
        }
        public var mode: Mode = .jwt
        public var jwt: JWT = .init()

        public init() {}
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            mode = try c.decodeIfPresent(Mode.self, forKey: .mode) ?? mode
            jwt = try c.decodeIfPresent(JWT.self, forKey: .jwt) ?? jwt
        }
        enum CodingKeys: String, CodingKey { case mode, jwt }
    }

    /// App Store Server API credentials (App Store Connect → Users and Access → Integrations → In-App Purchase).
    public struct ServerAPI: Sendable, Decodable {
        public var issuerId: String?
        public var keyId: String?
        /// The `.p8` private key. Secret.
        public var privateKeyFile: String?
        /// "Production" or "Sandbox".
        public var environment: AppStoreEnvironment = .production
        /// Overrides the environment's base URL (for a test double).
        public var baseURL: String?
        public init() {}
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            issuerId = try c.decodeIfPresent(String.self, forKey: .issuerId)
            keyId = try c.decodeIfPresent(String.self, forKey: .keyId)
            privateKeyFile = try c.decodeIfPresent(String.self, forKey: .privateKeyFile)
            environment = try c.decodeIfPresent(AppStoreEnvironment.self, forKey: .environment) ?? environment
            baseURL = try c.decodeIfPresent(String.self, forKey: .baseURL)
        }
        enum CodingKeys: String, CodingKey { case issuerId, keyId, privateKeyFile, environment, baseURL }
    }

    public struct Consumption: Sendable, Decodable {
        /// Whether to answer Apple's CONSUMPTION_REQUEST with Send Consumption Information.
        public var respond = false
        /// Whether the customer consented to sharing consumption data (Apple requires it for the answer to count).
        public var customerConsented = false
        public init() {}
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            respond = try c.decodeIfPresent(Bool.self, forKey: .respond) ?? respond
            customerConsented = try c.decodeIfPresent(Bool.self, forKey: .customerConsented) ?? customerConsented
        }
        enum CodingKeys: String, CodingKey { case respond, customerConsented }
    }

    public struct Reconciliation: Sendable, Decodable {
        /// Seconds between runs inside `serve`; 0 turns the periodic run off (`purser reconcile` still works).
        public var intervalSeconds: Double = 600
        public init() {}
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            intervalSeconds = try c.decodeIfPresent(Double.self, forKey: .intervalSeconds) ?? intervalSeconds
        }
        enum CodingKeys: String, CodingKey { case intervalSeconds }
    }

    public struct Admin: Sendable, Decodable {
        /// The admin API's bearer token. Secret; prefer `PURSER_ADMIN_TOKEN`.
        public var token: String?
        public init() {}
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            token = try c.decodeIfPresent(String.self, forKey: .token)
        }
        enum CodingKeys: String, CodingKey { case token }
    }

    public struct JWT: Sendable, Decodable {
        /// HS256, ES256 or RS256.
        public var algorithm: String = "HS256"
        /// The HS256 secret. Secret: prefer `PURSER_JWT_SECRET`.
        public var secret: String?
        /// A PEM public key for ES256 / RS256.
        public var publicKeyFile: String?
        public var issuer: String?
        public var audience: String?
        public init() {}
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            algorithm = try c.decodeIfPresent(String.self, forKey: .algorithm) ?? algorithm
            secret = try c.decodeIfPresent(String.self, forKey: .secret)
            publicKeyFile = try c.decodeIfPresent(String.self, forKey: .publicKeyFile)
            issuer = try c.decodeIfPresent(String.self, forKey: .issuer)
            audience = try c.decodeIfPresent(String.self, forKey: .audience)
        }
        enum CodingKeys: String, CodingKey { case algorithm, secret, publicKeyFile, issuer, audience }
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
    public var consumption = Consumption()
    public var reconciliation = Reconciliation()
    public var admin = Admin()

    public init() {}

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        host = try c.decodeIfPresent(String.self, forKey: .host) ?? host
        port = try c.decodeIfPresent(Int.self, forKey: .port) ?? port
        dataDirectory = try c.decodeIfPresent(String.self, forKey: .dataDirectory) ?? dataDirectory
        bundleId = try c.decodeIfPresent(String.self, forKey: .bundleId) ?? bundleId
        appAppleId = try c.decodeIfPresent(Int64.self, forKey: .appAppleId)
        environments = try c.decodeIfPresent([AppStoreEnvironment].self, forKey: .environments) ?? environments
        catalogFile = try c.decodeIfPresent(String.self, forKey: .catalogFile)
        appStore = try c.decodeIfPresent(AppStoreMode.self, forKey: .appStore) ?? appStore
        trustedRootFiles = try c.decodeIfPresent([String].self, forKey: .trustedRootFiles) ?? trustedRootFiles
        sharedSecret = try c.decodeIfPresent(String.self, forKey: .sharedSecret)
        verifyReceiptTimeoutSeconds = try c.decodeIfPresent(Double.self, forKey: .verifyReceiptTimeoutSeconds)
            ?? verifyReceiptTimeoutSeconds
        auth = try c.decodeIfPresent(Auth.self, forKey: .auth) ?? auth
        appStoreServerAPI = try c.decodeIfPresent(ServerAPI.self, forKey: .appStoreServerAPI) ?? appStoreServerAPI
        consumption = try c.decodeIfPresent(Consumption.self, forKey: .consumption) ?? consumption
        reconciliation = try c.decodeIfPresent(Reconciliation.self, forKey: .reconciliation) ?? reconciliation
        admin = try c.decodeIfPresent(Admin.self, forKey: .admin) ?? admin
    }

    enum CodingKeys: String, CodingKey {
        case host, port, dataDirectory, bundleId, appAppleId, environments, catalogFile, appStore, trustedRootFiles
        case sharedSecret, verifyReceiptTimeoutSeconds, auth, appStoreServerAPI, consumption, reconciliation, admin
    }

    /// Reads a configuration file; relative paths inside it are resolved against the file's directory.
    public static func load(file: URL) throws -> ServerConfiguration {
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw ConfigurationError("cannot read \(file.path)")
        }
        var configuration: ServerConfiguration
        do { configuration = try JSONDecoder().decode(ServerConfiguration.self, from: data) } catch {
            throw ConfigurationError("\(file.path) is not a valid configuration: \(error)")
        }
        let base = file.deletingLastPathComponent()
        func resolve(_ path: String) -> String {
            path.hasPrefix("/") ? path : base.appendingPathComponent(path).standardizedFileURL.path
        }
        configuration.dataDirectory = resolve(configuration.dataDirectory)
        configuration.catalogFile = configuration.catalogFile.map(resolve)
        configuration.trustedRootFiles = configuration.trustedRootFiles.map(resolve)
        configuration.auth.jwt.publicKeyFile = configuration.auth.jwt.publicKeyFile.map(resolve)
        configuration.appStoreServerAPI.privateKeyFile = configuration.appStoreServerAPI.privateKeyFile.map(resolve)
        return configuration
    }
}

/// A configuration that cannot be used; the message names the key or file.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
