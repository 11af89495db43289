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
///            "issuer": null, "audience": null}}
/// }
/// ```
/// Secrets: `auth.jwt.secret` and `sharedSecret`; prefer the `PURSER_JWT_SECRET` and `PURSER_APPSTORE_SHARED_SECRET`
/// environment variables, which override them.
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
    }

    enum CodingKeys: String, CodingKey {
        case host, port, dataDirectory, bundleId, appAppleId, environments, catalogFile, appStore, trustedRootFiles
        case sharedSecret, verifyReceiptTimeoutSeconds, auth
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
        return configuration
    }
}

/// A configuration that cannot be used; the message names the key or file.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
