import Configuration
import Foundation
import PurserStorage

extension ServerConfiguration {
    /// The support console under `/console`, served when `admin.token` is set.
    public struct Console: Sendable, Encodable {
        /// A support operator who signs in with a name and a password; only the password's scrypt hash is kept.
        /// The entry seeds the ledger's operators at start when the ledger has no operator of that name (the ledger
        /// wins afterwards), with `role` in the configured app: `admin` when absent, the power every operator had
        /// before roles.
        public struct Operator: Sendable, Hashable, Encodable {
            public var name: String
            public var passwordHash: String
            public var role: String?

            public init(name: String, passwordHash: String, role: String? = nil) {
                self.name = name
                self.passwordHash = passwordHash
                self.role = role
            }
        }

        public var operators: [Operator] = []
        /// Marks the session cookie `Secure` (set it when Purser is reached over TLS, as in production).
        public var secureCookies = false
        /// How long a session lasts after sign-in.
        public var sessionMinutes: Double = 480
        /// The most one goodwill credit from a user's page may give, per currency (0 hides the form).
        public var goodwillLimit: Int64 = 1_000
        /// The most a `support` operator may give alone in one goodwill credit, per currency; more waits for a
        /// second operator's approval (0: every goodwill credit of a support operator waits).
        public var grantLimit: Int64 = 100
        /// The most a `support` operator may give alone in 24 hours, per currency, summed over their credits.
        public var grantLimitPerDay: Int64 = 500
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

    /// `operators` (each `name`, `passwordHash`, `role`), `secureCookies`, `sessionMinutes`, `goodwillLimit`,
    /// `grantLimit`, `grantLimitPerDay`, `sampleIntervalSeconds`, `unboundAlertSeconds`, scoped to `console`.
    public init(reader: ConfigReader) {
        self.init()
        for index in 0..<Self.maxOperators {
            let entry = reader.scoped(to: ConfigKey(["operators", String(index)]))
            guard let name = entry.string(forKey: "name") else { break }
            operators.append(
                Operator(
                    name: name, passwordHash: entry.string(forKey: "passwordHash", isSecret: true) ?? "",
                    role: entry.string(forKey: "role")))
        }
        secureCookies = reader.bool(forKey: "secureCookies", default: secureCookies)
        sessionMinutes = reader.double(forKey: "sessionMinutes", default: sessionMinutes)
        goodwillLimit = Int64(reader.int(forKey: "goodwillLimit", default: Int(goodwillLimit)))
        grantLimit = Int64(reader.int(forKey: "grantLimit", default: Int(grantLimit)))
        grantLimitPerDay = Int64(reader.int(forKey: "grantLimitPerDay", default: Int(grantLimitPerDay)))
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
        guard grantLimit >= 0, grantLimitPerDay >= grantLimit else {
            throw ConfigurationError("console.grantLimit must be 0 or more, and console.grantLimitPerDay at least that")
        }
    }

    /// The operators, each with a password hash that parses and a known role (`admin` when absent); a malformed one
    /// stops `serve` naming it (every malformed one, at once).
    func checkedOperators() throws(ConfigurationError) -> [String: (hash: PasswordHash, role: ConsoleRole)] {
        var checked: [String: (hash: PasswordHash, role: ConsoleRole)] = [:]
        var problems: [String] = []
        for (index, entry) in operators.enumerated() {
            if entry.name.trimmingCharacters(in: .whitespaces).isEmpty {
                problems.append("console.operators.\(index).name is empty")
            }
            let hash = PasswordHash(encoded: entry.passwordHash)
            if hash == nil {
                problems.append(
                    "console.operators.\(index).passwordHash is not a hash made by purser console hash-password")
            }
            let role = ConsoleRole(rawValue: entry.role ?? ConsoleRole.admin.rawValue)
            if role == nil { problems.append("console.operators.\(index).role must be viewer, support or admin") }
            if let hash, let role { checked[entry.name] = (hash, role) }
        }
        guard problems.isEmpty else { throw ConfigurationError(problems) }
        return checked
    }
}
