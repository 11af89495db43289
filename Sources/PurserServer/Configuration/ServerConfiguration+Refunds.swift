import Configuration

extension ServerConfiguration {
    /// What a refund may do to a user's balance.
    public struct Refunds: Sendable, Encodable {
        /// Whether a refund may take a balance below zero (the user spent what Apple refunded). When false, a
        /// revoke takes each currency only down to zero and records the rest as its shortfall, in the audit log
        /// and the `transaction.revoked` event; a reversal then gives back only what was taken.
        public var allowNegativeBalance = true
        public init() {}
    }
}

extension ServerConfiguration.Refunds {
    /// `allowNegativeBalance` (bool, default `true`), scoped to `refunds`; an absent key keeps `base`'s value.
    public init(reader: ConfigReader, base: Self = .init()) {
        self = base
        allowNegativeBalance = reader.bool(forKey: "allowNegativeBalance", default: allowNegativeBalance)
    }
}
