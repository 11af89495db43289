import Configuration
import Foundation

extension ServerConfiguration {
    /// The support console under `/console`, served when `admin.token` is set.
    public struct Console: Sendable, Encodable {
        /// A support operator who signs in with a name and a password; only the password's scrypt hash is kept.
        public struct Operator: Sendable, Hashable, Encodable {
            public var name: String
            public var passwordHash: String

            public init(name: String, passwordHash: String) {
                self.name = name
                self.passwordHash = passwordHash
            }
        }

        public var operators: [Operator] = []
        /// Marks the session cookie `Secure` (set it when Purser is reached over TLS, as in production).
        public var secureCookies = false
        /// How long a session lasts after sign-in.
        public var sessionMinutes: Double = 480
        /// The most one goodwill credit from a user's page may give, per currency (0 hides the form).
        public var goodwillLimit: Int64 = 1_000
        /// How often the dashboard's queue sampler records the webhook backlog and the unbound queue (0: never).
        public var sampleIntervalSeconds: Double = 300
        /// The age of the oldest unbound transaction the dashboard draws its gauge against: the alert's threshold
        /// (a day, as `examples/prometheus-alerts.yml` fires).
        public var unboundAlertSeconds: Double = 86_400

        public init() {}
    }
}

extension ServerConfiguration.Console {
    static let maxOperators = 100

    /// `console.operators.N.passwordHash`: a secret in the file (its access is logged redacted).
    static func isOperatorSecretKey(_ key: String) -> Bool {
        key.hasPrefix("console.operators.") && key.hasSuffix(".passwordHash")
    }

    /// `operators` (each `name`, `passwordHash`), `secureCookies`, `sessionMinutes`, `goodwillLimit`,
    /// `sampleIntervalSeconds`, `unboundAlertSeconds`, scoped to `console`.
    public init(reader: ConfigReader) {
        self.init()
        for index in 0..<Self.maxOperators {
            let entry = reader.scoped(to: ConfigKey(["operators", String(index)]))
            guard let name = entry.string(forKey: "name") else { break }
            operators.append(
                Operator(name: name, passwordHash: entry.string(forKey: "passwordHash", isSecret: true) ?? ""))
        }
        secureCookies = reader.bool(forKey: "secureCookies", default: secureCookies)
        sessionMinutes = reader.double(forKey: "sessionMinutes", default: sessionMinutes)
        goodwillLimit = Int64(reader.int(forKey: "goodwillLimit", default: Int(goodwillLimit)))
        sampleIntervalSeconds = reader.double(forKey: "sampleIntervalSeconds", default: sampleIntervalSeconds)
        unboundAlertSeconds = reader.double(forKey: "unboundAlertSeconds", default: unboundAlertSeconds)
    }

    /// The sampler's interval and the gauge's threshold: 0 or more, and more than 0.
    func check() throws(ConfigurationError) {
        guard sampleIntervalSeconds >= 0 else {
            throw ConfigurationError("console.sampleIntervalSeconds must be 0 (no samples) or more")
        }
        guard unboundAlertSeconds > 0 else {
            throw ConfigurationError("console.unboundAlertSeconds must be more than 0")
        }
    }

    /// The operators, each with a password hash that parses; a malformed one stops `serve` naming it.
    func checkedOperators() throws(ConfigurationError) -> [String: PasswordHash] {
        var checked: [String: PasswordHash] = [:]
        for (index, entry) in operators.enumerated() {
            guard !entry.name.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ConfigurationError("console.operators.\(index).name is empty")
            }
            guard let hash = PasswordHash(encoded: entry.passwordHash) else {
                throw ConfigurationError(
                    "console.operators.\(index).passwordHash is not a hash made by purser console hash-password")
            }
            checked[entry.name] = hash
        }
        return checked
    }
}
