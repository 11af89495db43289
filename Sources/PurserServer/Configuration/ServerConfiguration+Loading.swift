import Configuration
import Foundation
import Logging

extension ServerConfiguration {
    /// The settings of `purser serve` and of the commands that share its configuration: the command line over the
    /// environment over the JSON file over the defaults, read with swift-configuration through `init(reader:)`.
    /// `resolve(file:environment:flags:logger:)` reads them the same way and checks everything they name.
    ///
    /// Relative paths that come from the file (or the defaults, when there is a file) resolve against the file's
    /// directory; paths given on the command line or in the environment stay relative to the working directory.
    ///
    /// - Parameters:
    ///   - file: a JSON file with the keys `init(reader:)` lists; `nil` for none.
    ///   - environment: the process environment; only `PURSER_…` names are read (see `init(reader:)`).
    ///   - flags: command-line values by configuration key, for example `["port": .int(8081)]`.
    ///   - logger: when given, swift-configuration's `AccessLogger` logs every access at debug level, secrets
    ///     redacted (`auth.jwt.secret`, `sharedSecret` and `admin.token` are read as secrets).
    /// - Throws: `ConfigurationError` naming the file (missing, unreadable, not a JSON object), or listing every key
    ///   that could not be read: each key Purser does not know, with the nearest known one, and each value of the
    ///   wrong type, or not one of an enumeration's values (listed), with its source.
    public static func load(
        file: URL?, environment: [String: String] = ProcessInfo.processInfo.environment,
        flags: [AbsoluteConfigKey: ConfigContent] = [:], logger: Logger? = nil
    ) async throws -> ServerConfiguration {
        let reading = try await read(file: file, environment: environment, flags: flags, logger: logger)
        guard reading.problems.isEmpty else { throw ConfigurationError(reading.problems) }
        return reading.configuration
    }

    /// Reads the settings as `load` does, keeping every key that could not be read as a problem (its default in its
    /// place) instead of throwing; throws only for a file that cannot be read as a JSON object.
    package static func read(
        file: URL?, environment: [String: String] = ProcessInfo.processInfo.environment,
        flags: [AbsoluteConfigKey: ConfigContent] = [:], logger: Logger? = nil
    ) async throws -> ConfigurationReading {
        let commandLine = InMemoryProvider(
            name: "command line",
            values: flags.mapValues {
                ConfigValue($0, isSecret: false)
            })
        let variables = environmentProvider(environment)
        let legacy = legacyEnvironmentProvider(environment)
        let overrides: [any ConfigProvider] = [commandLine, variables, legacy]
        var sources = [
            commandLine.providerName: "the command line", variables.providerName: "the environment",
            legacy.providerName: "the environment",
        ]
        var providers = overrides
        if let file {
            let provider = try await fileProvider(file)
            sources[provider.providerName] = file.path
            providers.append(provider)
        }
        let reported = ConfigurationProblems(sources: sources)
        let reporter: any AccessReporter =
            logger.map {
                BroadcastingAccessReporter(upstreams: [reported, AccessLogger(logger: $0)])
            } ?? reported
        var configuration = ServerConfiguration(reader: ConfigReader(providers: providers, accessReporter: reporter))
        var problems = reported.all
        if let file, let data = try? Data(contentsOf: file) {
            let unknown = UnknownConfigurationKeys(known: reported.readKeys).problems(in: data)
            problems += unknown.map { "\(file.path): \($0)" }
        }
        if let file {
            configuration.resolvePaths(
                against: file.deletingLastPathComponent(),
                unlessSetBy: ConfigReader(providers: overrides))
        }
        return ConfigurationReading(configuration: configuration, problems: problems)
    }

    /// The environment variable that sets `key`, as the environment provider names it: `PURSER_`, then each
    /// component upper-cased with `_` at each lower-to-upper boundary and between components
    /// (`apps.1.webhooks.endpoints.0.secret` → `PURSER_APPS_1_WEBHOOKS_ENDPOINTS_0_SECRET`).
    static func environmentVariable(forKey key: String) -> String {
        let components = key.split(separator: ".").map { component in
            var name = ""
            var previous: Character?
            for character in component {
                if let previous, previous.isLowercase, character.isUppercase { name.append("_") }
                name += character.isLetter || character.isNumber ? character.uppercased() : "_"
                previous = character
            }
            return name
        }
        return (["PURSER"] + components).joined(separator: "_")
    }

    /// `PURSER_`-prefixed variables, with keys mapped as swift-configuration's environment provider does
    /// (`auth.jwt.secret` → `PURSER_AUTH_JWT_SECRET`). Names with SECRET, TOKEN or PASSWORD in them are secrets, and
    /// so is `PURSER_DATABASE_URL` (a URL may carry the password).
    static func environmentProvider(_ environment: [String: String]) -> some ConfigProvider {
        EnvironmentVariablesProvider(
            environmentVariables: environment.filter { $0.key.hasPrefix("PURSER_") },
            secretsSpecifier: .dynamic { name, _ in
                ["SECRET", "TOKEN", "PASSWORD", "DATABASE_URL"].contains { name.contains($0) }
            }
        ).prefixKeys(with: "purser")
    }

    /// The names `purser` read before swift-configuration, whose form differs from the keys': below the new names.
    static func legacyEnvironmentProvider(_ environment: [String: String]) -> InMemoryProvider {
        let names: [(name: String, key: AbsoluteConfigKey)] = [
            ("PURSER_JWT_SECRET", "auth.jwt.secret"), ("PURSER_APPSTORE_SHARED_SECRET", "sharedSecret"),
        ]
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        for (name, key) in names {
            if let value = environment[name] { values[key] = ConfigValue(.string(value), isSecret: true) }
        }
        return InMemoryProvider(name: "legacy environment variables", values: values)
    }

    /// The JSON file, its secret keys marked (an endpoint's `secret` and `secrets`, an operator's hash among them); arrays of objects
    /// (`webhooks.endpoints`) read by index. A missing file and a file that is not a JSON object are errors.
    static func fileProvider(_ file: URL) async throws -> FileProvider<ListExpandingJSONSnapshot> {
        guard FileManager.default.isReadableFile(atPath: file.path) else {
            throw ConfigurationError("cannot read \(file.path)")
        }
        let options = JSONSnapshot.ParsingOptions(
            secretsSpecifier: .dynamic { key, _ in isSecretKey(key) })
        // The file's path goes in through a reader: the `filePath:` initialiser takes swift-system's `FilePath`.
        let location = ConfigReader(
            provider: InMemoryProvider(values: [
                "filePath": ConfigValue(.string(file.path), isSecret: false)
            ]))
        do {
            return try await FileProvider(parsingOptions: options, config: location)
        } catch {
            throw ConfigurationError("\(file.path) is not a valid configuration: \(error)")
        }
    }

    /// Makes relative paths absolute against `directory`, except those `overrides` (command line, environment) set.
    mutating func resolvePaths(against directory: URL, unlessSetBy overrides: ConfigReader) {
        func resolve(_ path: String) -> String {
            path.hasPrefix("/") ? path : directory.appendingPathComponent(path).standardizedFileURL.path
        }
        func fromFile(_ key: ConfigKey) -> Bool { overrides.string(forKey: key) == nil }
        let (topCatalog, topKey) = (catalogFile, appStoreServerAPI.privateKeyFile)
        if fromFile("dataDirectory") { dataDirectory = resolve(dataDirectory) }
        if fromFile("catalogFile") { catalogFile = catalogFile.map(resolve) }
        if fromFile("backup.directory") { backup.directory = backup.directory.map(resolve) }
        if overrides.stringArray(forKey: "trustedRootFiles") == nil { trustedRootFiles = trustedRootFiles.map(resolve) }
        if fromFile("simulator.storekitFile") { simulator.storekitFile = simulator.storekitFile.map(resolve) }
        if fromFile("xcode.certificateFile") { xcode.certificateFile = xcode.certificateFile.map(resolve) }
        if fromFile("auth.jwt.publicKeyFile") { auth.jwt.publicKeyFile = auth.jwt.publicKeyFile.map(resolve) }
        if fromFile("appStoreServerAPI.privateKeyFile") {
            appStoreServerAPI.privateKeyFile = appStoreServerAPI.privateKeyFile.map(resolve)
        }
        // An app's path is its own key's (resolved like the top-level ones) or the top-level value, as resolved.
        for index in apps.indices {
            if apps[index].catalogFile == topCatalog {
                apps[index].catalogFile = catalogFile
            } else if fromFile(ConfigKey(["apps", String(index), "catalogFile"])) {
                apps[index].catalogFile = apps[index].catalogFile.map(resolve)
            }
            if apps[index].appStoreServerAPI.privateKeyFile == topKey {
                apps[index].appStoreServerAPI.privateKeyFile = appStoreServerAPI.privateKeyFile
            } else if fromFile(ConfigKey(["apps", String(index), "appStoreServerAPI", "privateKeyFile"])) {
                apps[index].appStoreServerAPI.privateKeyFile = apps[index].appStoreServerAPI.privateKeyFile.map(resolve)
            }
        }
    }
}
