import Foundation
import PurserStorage

extension ServerConfiguration {
    /// Every problem that would stop `serve` from starting with this configuration, each naming its key or file,
    /// found without opening the ledger or calling anyone: the catalog, the console's operators, the trusted
    /// proxies, Xcode's certificate, the webhook endpoints, authentication, receipts, consumption answers, Apple's
    /// roots and key, and the database URL. Empty when it would start (as far as a file can tell: ports and the
    /// database itself are tried only by `serve`).
    public func problems() -> [String] {
        var problems = ProblemList()
        func check(_ part: () throws -> Void) { problems.check(part) }
        check { try checkApps() }
        for (index, app) in servedApps.enumerated() {
            let prefix = apps.isEmpty ? "" : "apps.\(index) (\(app.bundleId)): "
            problems.items += settings(for: app).appProblems().map { prefix + $0 }
        }
        check { _ = try console.checkedOperators() }
        check { try console.check() }
        check { _ = try TrustedProxies(http.trustedProxies) }
        check { try http.check() }
        check { _ = try xcodeCertificate() }
        check { _ = try checkedAuthenticator() }
        check { try retention.check() }
        check { try backup.check(postgres: database.url != nil) }
        if let url = database.url {
            check {
                do { _ = try PostgresLedgerStore.Configuration(url: url, password: database.password) } catch let error
                    as StorageError
                {
                    throw ConfigurationError("database.url: \(error.message)")
                }
            }
        }
        return problems.items
    }

    /// The problems of one app's settings (`settings(for:)`): its catalog, webhook endpoints, receipts, consumption
    /// answers, Apple's roots and key.
    func appProblems() -> [String] {
        var problems = ProblemList()
        func check(_ part: () throws -> Void) { problems.check(part) }
        check { _ = try loadCatalog() }
        check { _ = try webhooks.checkedEndpoints() }
        let credentials =
            appStore == .simulator
            || (appStoreServerAPI.issuerId != nil && appStoreServerAPI.keyId != nil
                && appStoreServerAPI.privateKeyFile != nil)
        check { _ = try receiptVerification(serverAPI: credentials) }
        check { _ = try consumptionPolicy() }
        if appStore == .apple {
            check { _ = try AppStoreAccess.apple(self) }
        }
        return problems.items
    }

    /// The configuration in effect, as JSON with sorted keys: the defaults, the file, the environment and the flags
    /// merged, every secret that is set shown as `<redacted>`.
    public func effectiveJSON() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let object = try JSONSerialization.jsonObject(with: try encoder.encode(self))
        let redacted = Self.redacting(object, path: [])
        let data = try JSONSerialization.data(
            withJSONObject: redacted, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    /// `value` with the value of every secret key (`isSecretKey`) replaced; an array's elements are keyed by index,
    /// as the file provider reads them (`webhooks.endpoints.0.secrets`).
    static func redacting(_ value: Any, path: [String]) -> Any {
        if let object = value as? [String: Any] {
            var result: [String: Any] = [:]
            for (key, child) in object {
                let childPath = path + [key]
                result[key] =
                    isSecretKey(childPath.joined(separator: ".")) ? "<redacted>" : redacting(child, path: childPath)
            }
            return result
        }
        if let array = value as? [Any] {
            return array.enumerated().map { redacting($0.element, path: path + [String($0.offset)]) }
        }
        return value
    }
}

/// The problems several checks found, each naming its key or file.
private struct ProblemList {
    var items: [String] = []

    /// Runs `part`, keeping what it throws as a problem.
    mutating func check(_ part: () throws -> Void) {
        do {
            try part()
        } catch let error as ConfigurationError {
            items += error.problems
        } catch {
            items.append("\(error)")
        }
    }
}
