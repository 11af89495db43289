import Configuration
import Foundation
import Logging
import PurserCore
import PurserServer
import Testing

/// `ServerConfiguration.load`: defaults, the JSON file, `PURSER_…` variables and flags, in that order of strength.
@Suite struct ServerConfigurationTests {
    /// A directory with `purser.json` holding `json`; removed by the caller.
    func configFile(_ json: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("purser.json")
        try json.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    func remove(_ file: URL) { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }

    /// The `ConfigurationError` that `load` throws, as text.
    func failure(file: URL?, environment: [String: String] = [:]) async -> String? {
        do {
            _ = try await ServerConfiguration.load(file: file, environment: environment)
            return nil
        } catch let error as ConfigurationError {
            return error.description
        } catch {
            return "not a ConfigurationError: \(error)"
        }
    }

    @Test func defaultsWithoutFileEnvironmentOrFlags() async throws {
        let settings = try await ServerConfiguration.load(file: nil, environment: ["HOME": "/root", "PORT": "1"])
        #expect(settings.host == "127.0.0.1")
        #expect(settings.port == 8080)
        #expect(settings.dataDirectory == "data")
        #expect(settings.bundleId == "com.example.purser.demo")
        #expect(settings.appAppleId == nil)
        #expect(settings.environments == [.production, .sandbox])
        #expect(settings.catalogFile == nil)
        #expect(settings.appStore == .apple)
        #expect(settings.trustedRootFiles.isEmpty)
        #expect(settings.sharedSecret == nil)
        #expect(settings.verifyReceiptTimeoutSeconds == 10)
        #expect(settings.auth.mode == .jwt)
        #expect(settings.auth.jwt.algorithm == "HS256")
        #expect(settings.auth.jwt.secret == nil && settings.auth.jwt.issuer == nil)
        #expect(settings.appStoreServerAPI.environment == .production && settings.appStoreServerAPI.keyId == nil)
        #expect(!settings.consumption.respond && !settings.consumption.customerConsented)
        #expect(settings.reconciliation.intervalSeconds == 600)
        #expect(settings.admin.token == nil)
    }

    @Test func readsEveryKindOfValueFromTheFile() async throws {
        let file = try configFile(
            """
            {"host": "0.0.0.0", "port": 9000, "bundleId": "com.example.game", "appAppleId": 1234567890,
             "environments": ["Sandbox"], "appStore": "simulator", "verifyReceiptTimeoutSeconds": 2.5,
             "sharedSecret": "file-shared-secret",
             "auth": {"mode": "development", "jwt": {"algorithm": "ES256", "issuer": "login", "audience": "game"}},
             "appStoreServerAPI": {"issuerId": "issuer", "keyId": "KEY", "environment": "Sandbox",
                                   "baseURL": "http://127.0.0.1:1"},
             "consumption": {"respond": true, "customerConsented": true},
             "reconciliation": {"intervalSeconds": 0}, "admin": {"token": "file-admin-token"}}
            """)
        defer { remove(file) }
        let settings = try await ServerConfiguration.load(file: file, environment: [:])
        #expect(settings.host == "0.0.0.0" && settings.port == 9000 && settings.bundleId == "com.example.game")
        #expect(settings.appAppleId == 1_234_567_890)
        #expect(settings.environments == [.sandbox])
        #expect(settings.appStore == .simulator)
        #expect(settings.verifyReceiptTimeoutSeconds == 2.5)
        #expect(settings.sharedSecret == "file-shared-secret")
        #expect(settings.auth.mode == .development)
        #expect(settings.auth.jwt.algorithm == "ES256" && settings.auth.jwt.issuer == "login")
        #expect(settings.auth.jwt.audience == "game")
        #expect(settings.appStoreServerAPI.issuerId == "issuer" && settings.appStoreServerAPI.keyId == "KEY")
        #expect(settings.appStoreServerAPI.environment == .sandbox)
        #expect(settings.appStoreServerAPI.baseURL == "http://127.0.0.1:1")
        #expect(settings.consumption.respond && settings.consumption.customerConsented)
        #expect(settings.reconciliation.intervalSeconds == 0)
        #expect(settings.admin.token == "file-admin-token")
    }

    @Test func connectionLimitsAndTheOrderHintWindowHaveDefaultsAndKeys() async throws {
        let defaults = try await ServerConfiguration.load(file: nil, environment: [:])
        #expect(defaults.http.idleTimeoutSeconds == 30 && defaults.http.requestReadTimeoutSeconds == 30)
        #expect(defaults.http.maxConnections == 1024)
        #expect(defaults.orderHint.maxAgeSeconds == 86_400)
        let file = try configFile(
            #"{"http": {"idleTimeoutSeconds": 5, "requestReadTimeoutSeconds": 7.5, "maxConnections": 64},"#
                + #" "orderHint": {"maxAgeSeconds": 3600}}"#)
        defer { remove(file) }
        let fromFile = try await ServerConfiguration.load(file: file, environment: [:])
        #expect(fromFile.http.idleTimeoutSeconds == 5 && fromFile.http.requestReadTimeoutSeconds == 7.5)
        #expect(fromFile.http.maxConnections == 64)
        #expect(fromFile.orderHint.maxAgeSeconds == 3600)
        let fromEnvironment = try await ServerConfiguration.load(
            file: file,
            environment: [
                "PURSER_HTTP_IDLE_TIMEOUT_SECONDS": "2", "PURSER_HTTP_MAX_CONNECTIONS": "8",
                "PURSER_ORDER_HINT_MAX_AGE_SECONDS": "60",
            ])
        #expect(fromEnvironment.http.idleTimeoutSeconds == 2 && fromEnvironment.http.maxConnections == 8)
        #expect(fromEnvironment.orderHint.maxAgeSeconds == 60)
        #expect(fromEnvironment.http.requestReadTimeoutSeconds == 7.5)
    }

    @Test func theEnvironmentBeatsTheFile() async throws {
        let file = try configFile(#"{"port": 9000, "host": "0.0.0.0", "auth": {"jwt": {"issuer": "file"}}}"#)
        defer { remove(file) }
        let settings = try await ServerConfiguration.load(
            file: file,
            environment: [
                "PURSER_PORT": "9100", "PURSER_AUTH_JWT_ISSUER": "environment", "PURSER_ENVIRONMENTS": "Sandbox, Xcode",
                "PURSER_APP_STORE_SERVER_API_KEY_ID": "ENVKEY", "PURSER_CONSUMPTION_RESPOND": "true",
                "PURSER_VERIFY_RECEIPT_TIMEOUT_SECONDS": "3.5", "PURSER_APP_APPLE_ID": "42",
            ])
        #expect(settings.port == 9100)
        #expect(settings.host == "0.0.0.0", "keys the environment does not set come from the file")
        #expect(settings.auth.jwt.issuer == "environment")
        #expect(settings.environments == [.sandbox, .xcode])
        #expect(settings.appStoreServerAPI.keyId == "ENVKEY")
        #expect(settings.consumption.respond)
        #expect(settings.verifyReceiptTimeoutSeconds == 3.5)
        #expect(settings.appAppleId == 42)
    }

    @Test func flagsBeatTheEnvironment() async throws {
        let file = try configFile(#"{"port": 9000, "auth": {"mode": "jwt"}, "bundleId": "com.example.file"}"#)
        defer { remove(file) }
        let settings = try await ServerConfiguration.load(
            file: file, environment: ["PURSER_PORT": "9100", "PURSER_AUTH_MODE": "jwt"],
            flags: ["port": .int(9200), "auth.mode": .string("development")])
        #expect(settings.port == 9200)
        #expect(settings.auth.mode == .development)
        #expect(settings.bundleId == "com.example.file")
    }

    @Test func theLegacyVariablesStillSetTheSecrets() async throws {
        let file = try configFile(
            #"{"sharedSecret": "file", "admin": {"token": "file"}, "auth": {"jwt": {"secret": "file"}}}"#)
        defer { remove(file) }
        let legacy = [
            "PURSER_JWT_SECRET": "legacy-jwt-secret", "PURSER_APPSTORE_SHARED_SECRET": "legacy-shared-secret",
            "PURSER_ADMIN_TOKEN": "admin-token",
        ]
        let settings = try await ServerConfiguration.load(file: file, environment: legacy)
        #expect(settings.auth.jwt.secret == "legacy-jwt-secret")
        #expect(settings.sharedSecret == "legacy-shared-secret")
        #expect(settings.admin.token == "admin-token")
        var both = legacy
        both["PURSER_AUTH_JWT_SECRET"] = "new-jwt-secret"
        both["PURSER_SHARED_SECRET"] = "new-shared-secret"
        let newer = try await ServerConfiguration.load(file: file, environment: both)
        #expect(newer.auth.jwt.secret == "new-jwt-secret", "the key's own name wins over the older one")
        #expect(newer.sharedSecret == "new-shared-secret")
    }

    @Test func relativePathsInTheFileResolveAgainstItsDirectory() async throws {
        let file = try configFile(
            """
            {"catalogFile": "catalog.json", "trustedRootFiles": ["roots/extra.der", "/etc/absolute.der"],
             "auth": {"jwt": {"publicKeyFile": "../keys/login.pem"}},
             "appStoreServerAPI": {"privateKeyFile": "AuthKey.p8"}}
            """)
        defer { remove(file) }
        let directory = file.deletingLastPathComponent().standardizedFileURL.path
        let settings = try await ServerConfiguration.load(file: file, environment: [:])
        #expect(settings.dataDirectory == directory + "/data", "the default is relative to the file too, as before")
        #expect(settings.catalogFile == directory + "/catalog.json")
        #expect(settings.trustedRootFiles == [directory + "/roots/extra.der", "/etc/absolute.der"])
        let parent = file.deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL.path
        #expect(settings.auth.jwt.publicKeyFile == parent + "/keys/login.pem")
        #expect(settings.appStoreServerAPI.privateKeyFile == directory + "/AuthKey.p8")

        let overridden = try await ServerConfiguration.load(
            file: file, environment: ["PURSER_CATALOG_FILE": "mine.json"], flags: ["dataDirectory": .string("here")])
        #expect(overridden.catalogFile == "mine.json", "the environment's paths stay relative to the working directory")
        #expect(overridden.dataDirectory == "here", "so do the command line's")
    }

    @Test func aMissingOrMalformedFileIsAnErrorNamingTheFile() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("purser-missing-\(UUID()).json")
        let missingError = try #require(await failure(file: missing))
        #expect(missingError.contains(missing.path))
        for text in ["{\"port\": ", "[1, 2]"] {
            let file = try configFile(text)
            defer { remove(file) }
            let error = try #require(await failure(file: file))
            #expect(error.contains(file.path) && error.contains("not a valid configuration"), "\(error)")
        }
    }

    @Test func aValueOfTheWrongTypeIsAnErrorNamingTheKey() async throws {
        let file = try configFile(#"{"port": "eighty", "host": "0.0.0.0"}"#)
        defer { remove(file) }
        let fromFile = try #require(await failure(file: file))
        #expect(fromFile.contains("port") && fromFile.contains(file.path), "\(fromFile)")

        let fromEnvironment = try #require(await failure(file: nil, environment: ["PURSER_PORT": "eighty"]))
        #expect(fromEnvironment.contains("port") && fromEnvironment.contains("the environment"), "\(fromEnvironment)")

        let notAMode = try configFile(#"{"appStore": "nowhere"}"#)
        defer { remove(notAMode) }
        let modeError = try #require(await failure(file: notAMode))
        #expect(modeError.contains("appStore") && modeError.contains(notAMode.path), "\(modeError)")
    }

    /// A key Purser does not know stops the load, named by its first unknown part with the nearest known name: once,
    /// `"webhook"` for `"webhooks"` was ignored and the server started without webhooks.
    @Test func anUnknownKeyIsAnErrorWithTheNearestKnownOne() async throws {
        let file = try configFile(
            #"{"port": 8080, "webhook": {"endpoints": [{"url": "https://game.example/h", "secret": "whsec_c2VjcmV0"}]},"#
                + #" "console": {"sesionMinutes": 5}, "zzzzzz": 1}"#)
        defer { remove(file) }
        let error = try #require(await failure(file: file))
        #expect(error.contains(file.path), "\(error)")
        #expect(error.contains("unknown configuration key webhook (did you mean webhooks?)"), "\(error)")
        #expect(error.contains("console.sesionMinutes (did you mean console.sessionMinutes?)"), "\(error)")
        #expect(error.contains("unknown configuration key zzzzzz") && !error.contains("zzzzzz ("), "\(error)")
        #expect(!error.contains("c2VjcmV0"), "no value is repeated")
        // Every key of a complete file is known.
        let complete = try configFile(
            #"{"port": 0, "webhooks": {"endpoints": [{"url": "https://game.example/h", "secrets": [], "#
                + #""events": ["transaction.credited"]}], "retrySeconds": [1]}, "http": {"trustedProxies": []}, "#
                + #""console": {"operators": [{"name": "li", "passwordHash": "x"}], "sessionMinutes": 5}}"#)
        defer { remove(complete) }
        #expect(await failure(file: complete) == nil)
    }

    /// A value that is none of a key's fixed set is an error listing the valid ones.
    @Test func aBadEnumerationValueListsTheValidOnes() async throws {
        let file = try configFile(#"{"auth": {"mode": "magic"}}"#)
        defer { remove(file) }
        let error = try #require(await failure(file: file))
        #expect(error.contains("auth.mode") && error.contains("valid values: jwt, development"), "\(error)")
    }
}
