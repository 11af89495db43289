import Foundation

/// A Purser webhook's body, in the Standard Webhooks payload structure: `{"type", "timestamp", "data"}`, and
/// `bundleId`, the app whose ledger wrote it (one receiver may serve every game of a studio). `data` is the
/// transaction for `transaction.*` types, the spend or deposit for `wallet.changed`, the pseudonym for `user.erased`,
/// and `{"message"}` for `webhook.test`. Purser writes the body once, when the event happens, and posts the very same
/// bytes on every retry.
public struct WebhookEvent: Sendable, Hashable, Codable {
    /// A full-stop delimited event type.
    public struct EventType: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The type as sent (`transaction.credited`, …).
        public var rawValue: String
        /// A type from its text, known or not.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A type from its text, known or not.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The type as sent.
        public var description: String { rawValue }

        /// Purchased goods were credited to `userId`.
        public static let transactionCredited = EventType("transaction.credited")
        /// Apple refunded: the grants (negative amounts) were taken back.
        public static let transactionRevoked = EventType("transaction.revoked")
        /// Apple reversed a refund: the grants were given back.
        public static let transactionRestored = EventType("transaction.restored")
        /// A spend or deposit changed a wallet (the game's backend, or support's goodwill credit).
        public static let walletChanged = EventType("wallet.changed")
        /// A user was erased: their id is a pseudonym in the ledger from now on (`DELETE /admin/v1/users/{id}`).
        public static let userErased = EventType("user.erased")
        /// A signed test event an operator sent (`purser webhooks test`); no data to apply.
        public static let test = EventType("webhook.test")
        /// The `transaction.*` types.
        public static let transactionTypes: [EventType] = [
            transactionCredited, transactionRevoked, transactionRestored,
        ]
        /// The types an endpoint may subscribe to.
        public static let subscribable: [EventType] = transactionTypes + [walletChanged, userErased]
    }

    /// What happened.
    public var type: EventType
    /// The app (bundle id) whose ledger wrote the event; `nil` in bodies from before apps were named.
    public var bundleId: String?
    /// When the event happened (not when it was delivered).
    public var timestamp: Date
    /// The transaction, for `transaction.*` types.
    public var transaction: Transaction?
    /// The spend or deposit, for `wallet.changed`.
    public var walletChange: WalletChange?
    /// The erasure, for `user.erased`.
    public var erasure: Erasure?
    /// For `webhook.test`: a line for the operator.
    public var message: String?

    /// An event; the server writes these, and tests make them.
    public init(
        type: EventType, timestamp: Date, transaction: Transaction? = nil, walletChange: WalletChange? = nil,
        erasure: Erasure? = nil, message: String? = nil, bundleId: String? = nil
    ) {
        self.type = type
        self.bundleId = bundleId
        self.timestamp = timestamp
        self.transaction = transaction
        self.walletChange = walletChange
        self.erasure = erasure
        self.message = message
    }

    private enum CodingKeys: String, CodingKey { case type, bundleId, timestamp, data }
    private enum TestKeys: String, CodingKey { case message }

    /// Decodes the body: `type`, `timestamp` and the `data` its type carries.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(EventType.self, forKey: .type)
        bundleId = try container.decodeIfPresent(String.self, forKey: .bundleId)
        timestamp = try container.decode(Date.self, forKey: .timestamp)
        if type.rawValue.hasPrefix("transaction.") {
            transaction = try container.decode(Transaction.self, forKey: .data)
        } else if type == .walletChanged {
            walletChange = try container.decode(WalletChange.self, forKey: .data)
        } else if type == .userErased {
            erasure = try container.decode(Erasure.self, forKey: .data)
        } else if container.contains(.data), try !container.decodeNil(forKey: .data) {
            message = try container.nestedContainer(keyedBy: TestKeys.self, forKey: .data)
                .decodeIfPresent(String.self, forKey: .message)
        }
    }

    /// Encodes the body as Purser sends it: `type`, `bundleId`, `timestamp`, `data`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encodeIfPresent(bundleId, forKey: .bundleId)
        try container.encode(timestamp, forKey: .timestamp)
        if let transaction {
            try container.encode(transaction, forKey: .data)
        } else if let walletChange {
            try container.encode(walletChange, forKey: .data)
        } else if let erasure {
            try container.encode(erasure, forKey: .data)
        } else {
            var data = container.nestedContainer(keyedBy: TestKeys.self, forKey: .data)
            try data.encodeIfPresent(message, forKey: .message)
        }
    }
}
