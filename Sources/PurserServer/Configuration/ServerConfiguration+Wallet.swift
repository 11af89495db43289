import Configuration

extension ServerConfiguration {
    /// What the app itself may do to its user's wallet.
    public struct Wallet: Sendable, Encodable {
        /// Whether `POST /v1/wallet/spend` spends from the signed-in user's own wallet: for a game with no backend of
        /// its own. Off (the default), that route is 403 `client_spend_disabled` and only the backend's admin API
        /// spends, because a player controls what their app sends.
        public var clientSpend = false
        public init() {}
    }
}

extension ServerConfiguration.Wallet {
    /// `clientSpend` (bool, default `false`), scoped to `wallet`.
    public init(reader: ConfigReader) {
        self.init()
        clientSpend = reader.bool(forKey: "clientSpend", default: clientSpend)
    }
}
