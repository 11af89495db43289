/// The fault families (Chaos.md) that `purser chaos` injects. Each has a rate: per purchase unless
/// the family is a property of a device (then the share of devices), see `unit`.
public enum FaultFamily: String, CaseIterable, Sendable, Codable, Hashable, Comparable {
    case clientCrash = "client-crash"
    case requestLost = "request-lost"
    case responseLost = "response-lost"
    case nilApplicationUsername = "nil-username"
    case duplicateCallbacks = "duplicate-callbacks"
    case accountSwitch = "account-switch"
    case reinstall = "reinstall"
    case rebuyUnfinished = "rebuy-unfinished"
    case verifyReceiptErrors = "verify-receipt"
    case notificationLoss = "notification-loss"
    case refund = "refund"
    case replay = "replay"
    case forgery = "forgery"
    case deviceNeverReturns = "device-lost"
    case serverAPIErrors = "server-api"
    case slowPayment = "slow-payment"
    case serverKill = "server-kill"
    case webhookReceiver = "webhook-receiver"
    case spendRetry = "spend-retry"
    case databaseFailover = "database-failover"

    /// What a rate counts.
    public enum Unit: String, Sendable, Codable {
        /// The chance that one purchase meets the fault.
        case purchase
        /// The share of devices that have the fault for the whole run (rounded, at least one device).
        case device
    }

    public var unit: Unit {
        switch self {
        case .nilApplicationUsername, .duplicateCallbacks, .deviceNeverReturns: .device
        default: .purchase
        }
    }

    /// The rate used when none is given.
    public var defaultRate: Double {
        switch self {
        case .clientCrash: 0.05
        case .requestLost, .responseLost: 0.05
        case .nilApplicationUsername: 0.3
        case .duplicateCallbacks: 0.2
        case .accountSwitch: 0.03
        case .reinstall: 0.01
        case .rebuyUnfinished: 0.02
        case .verifyReceiptErrors: 0.03
        case .notificationLoss: 0.05
        case .refund: 0.01
        case .replay: 0.01
        case .forgery: 0.01
        case .deviceNeverReturns: 0.1
        case .serverAPIErrors: 0.5
        case .slowPayment: 0.01
        case .serverKill: 0.01
        case .webhookReceiver: 0.02
        case .spendRetry: 0.2
        case .databaseFailover: 0.002
        }
    }

    /// One line on what is injected.
    public var summary: String {
        switch self {
        case .clientCrash:
            "the app is killed at a random step of the purchase (order, journal, paid, decided, finished)"
        case .requestLost: "1-6 submissions in a row never reach the server (503 before it acts)"
        case .responseLost: "1-6 submissions in a row reach the server, which acts, but the answer is lost"
        case .nilApplicationUsername:
            "StoreKit 1 callbacks on this share of StoreKit 1 devices lose applicationUsername half the time"
        case .duplicateCallbacks: "these devices deliver every purchase twice"
        case .accountSwitch: "another user signs in on the device before the purchase"
        case .reinstall: "the app is deleted and installed again (the journal survives only on Keychain devices)"
        case .rebuyUnfinished: "the user buys the same product again right after"
        case .verifyReceiptErrors: "Apple's verifyReceipt answers 21005, 503 or times out once"
        case .notificationLoss: "Apple's next 1-3 notification deliveries are lost (retried on Apple's schedule)"
        case .refund: "Apple refunds the device's latest purchase: wholly, or in one or two partial refunds"
        case .replay: "another account submits the device's latest purchase"
        case .forgery: "a forged signed transaction and a truncated receipt are submitted"
        case .deviceNeverReturns: "these devices are never opened again after the fault phase"
        case .serverAPIErrors:
            "the App Store Server API answers 429/500 during reconciliation (rate = chance per call, first 20 calls)"
        case .slowPayment:
            "on a StoreKit 1 device, the payment sheet outlasts the app's wait: Apple charges after buy answered"
        case .serverKill:
            "a random purser serve replica is killed with SIGKILL during the purchase and restarted (--replicas only)"
        case .webhookReceiver:
            "the game backend's next 1-6 webhook posts meet it down (503), failing (500) or stalling past the time-out"
        case .spendRetry:
            "the game backend sends its wallet requests (spend, hold, capture, void) 1-3 more times with the same id"
        case .databaseFailover:
            "the PostgreSQL primary is killed with SIGKILL under load and its synchronous standby promoted (at least "
                + "one per run; --storage postgres only, skipped on SQLite; the harness starts both servers itself)"
        }
    }

    /// Whether the family needs the server as separate processes (`--replicas`).
    public var needsReplicas: Bool { self == .serverKill || self == .databaseFailover }

    /// Whether the family needs the PostgreSQL ledger: on SQLite it is skipped (one file has no standby).
    public var needsPostgres: Bool { self == .databaseFailover }

    public static func < (lhs: FaultFamily, rhs: FaultFamily) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
