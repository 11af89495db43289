import Foundation

/// What a console operator may do in one app, each role including the ones before it: `viewer` reads, `support` also
/// binds, makes good and gives goodwill (within `console.grantLimit`), `admin` also replays webhooks, manages
/// operators and approves any waiting grant.
public enum ConsoleRole: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case viewer
    case support
    case admin

    /// Whether this role includes everything `other` may do.
    public func includes(_ other: ConsoleRole) -> Bool { self >= other }

    public static func < (lhs: ConsoleRole, rhs: ConsoleRole) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A console operator as the ledger keeps them, so that every replica knows the same people: the scrypt hash of
/// their password (PHC string), their role per app (the configuration's `bundleId` while a deployment has one app),
/// whether they are disabled, and the session generation every console cookie carries (bumped when they are
/// disabled or their password changes, which ends their sessions everywhere).
public struct ConsoleOperator: Sendable, Hashable {
    public var name: String
    public var passwordHash: String
    /// The role per app id; an app without an entry is one the operator may not see.
    public var roles: [String: ConsoleRole]
    public var disabled: Bool
    public var generation: Int64
    /// The most this operator may give in one goodwill credit without a second operator, per currency (`nil`: the
    /// configuration's `console.grantLimit`).
    public var grantLimit: Int64?
    /// The most this operator may give alone in 24 hours, per currency (`nil`: `console.grantLimitPerDay`).
    public var grantLimitPerDay: Int64?
    public var updatedAt: Date

    public init(
        name: String, passwordHash: String, roles: [String: ConsoleRole], disabled: Bool = false,
        generation: Int64 = 1, grantLimit: Int64? = nil, grantLimitPerDay: Int64? = nil, updatedAt: Date
    ) {
        self.name = name
        self.passwordHash = passwordHash
        self.roles = roles
        self.disabled = disabled
        self.generation = generation
        self.grantLimit = grantLimit
        self.grantLimitPerDay = grantLimitPerDay
        self.updatedAt = updatedAt
    }

    /// One change an admin makes to an operator (`LedgerStore.changeConsoleOperator`).
    public enum Change: Sendable, Hashable {
        /// The role in one app; `nil` takes the app away.
        case role(app: String, ConsoleRole?)
        /// Disables or enables; either bumps the generation (a disabled operator's sessions end at once).
        case disabled(Bool)
        /// A new password hash; bumps the generation.
        case password(String)
        /// The operator's own grant limits (`nil`: the configuration's).
        case limits(perGrant: Int64?, perDay: Int64?)

        /// How the audit record names the change (never the hash).
        public var event: String {
            switch self {
            case .role: "role_changed"
            case .disabled(let disabled): disabled ? "disabled" : "enabled"
            case .password: "password_changed"
            case .limits: "limits_changed"
            }
        }

        var detail: String {
            switch self {
            case .role(let app, let role): "\(app): \(role?.rawValue ?? "none")"
            case .disabled, .password: ""
            case .limits(let perGrant, let perDay):
                "per grant \(perGrant.map(String.init) ?? "default"), per day \(perDay.map(String.init) ?? "default")"
            }
        }

        /// Whether the change ends the operator's sessions.
        var bumpsGeneration: Bool {
            switch self {
            case .disabled, .password: true
            case .role, .limits: false
            }
        }
    }
}
