import Foundation

extension WebhookEvent {
    /// The `data` of a `wallet.changed` event: a spend or deposit the game's backend or support applied to one
    /// account's wallet, with the balances it left. Purchase credits and refunds keep their `transaction.*` events.
    public struct WalletChange: Sendable, Hashable, Codable {
        /// The caller's idempotency id of the spend or deposit (`POST /admin/v1/wallets/{userId}/transactions`).
        public var id: String
        /// The user whose wallet changed.
        public var userId: String
        /// What the change added per currency: negative for a spend, positive for a deposit.
        public var amounts: [String: Int64]
        /// The user's balances of those currencies right after the change.
        public var balances: [String: Int64]
        /// Who applied it: `admin` (the game's backend with the legacy admin token), `admin by key:<name>` (with the
        /// API key `<name>`), `admin by <operator> via key:<name>` (with a key and an `X-Purser-Operator` header),
        /// `app` (the user's own app, `POST /v1/wallet/spend`), `support by <operator>` (a goodwill credit) or
        /// `support by <operator>, approved by <operator>` (a goodwill credit above the limit, once a second
        /// operator approved it). A hold's capture has the cause of the call that captured it.
        public var cause: String
        /// The caller's reason, as the wallet's history shows it.
        public var reason: String
        /// When Purser recorded the change.
        public var occurredAt: Date
        /// 1, 2, 3, … per `userId`, shared with the user's `transaction.*` events: a receiver can order them.
        public var sequence: Int64

        /// A wallet change's data; the server writes these.
        public init(
            id: String, userId: String, amounts: [String: Int64], balances: [String: Int64], cause: String,
            reason: String, occurredAt: Date, sequence: Int64
        ) {
            self.id = id
            self.userId = userId
            self.amounts = amounts
            self.balances = balances
            self.cause = cause
            self.reason = reason
            self.occurredAt = occurredAt
            self.sequence = sequence
        }
    }
}
