import Foundation

extension WebhookEvent {
    /// The `data` of a `transaction.*` event: what happened to one Apple transaction, for one game account.
    public struct Transaction: Sendable, Hashable, Codable {
        /// What credited the transaction (`transaction.credited` only).
        public struct Cause: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
            /// The cause as sent (`client`, `notification`, `reconciliation`, `support`).
            public var rawValue: String
            /// A cause from its text, known or not.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// The cause as sent.
            public var description: String { rawValue }

            /// The app submitted it.
            public static let client = Cause(rawValue: "client")
            /// An App Store Server Notification.
            public static let notification = Cause(rawValue: "notification")
            /// Reconciliation with the App Store Server API.
            public static let reconciliation = Cause(rawValue: "reconciliation")
            /// A support operator's grant.
            public static let support = Cause(rawValue: "support")
        }

        /// Apple's transaction id.
        public var transactionId: String
        /// Apple's original transaction id.
        public var originalTransactionId: String
        /// Purser's order, when one bound the transaction.
        public var orderId: String?
        /// The game account credited (or debited by a refund).
        public var userId: String
        /// The product bought.
        public var productId: String
        /// How many units.
        public var quantity: Int
        /// Amounts per currency this event adds to the account: positive for credits and restores, negative for
        /// revocations (exactly what was taken back).
        public var grants: [String: Int64]
        /// `Production` or `Sandbox`.
        public var environment: String
        /// When Purser recorded the change.
        public var occurredAt: Date
        /// 1, 2, 3, … per `userId`, in the order Purser recorded the user's events: a receiver can order them.
        public var sequence: Int64
        /// For a credit: what credited it.
        public var cause: Cause?
        /// For `transaction.revoked`: the share of the credit this refund took back (1 for a whole refund, 0.3 when
        /// a prorated refund took the refunded share from 50% to 80%). `grants` holds the exact amounts.
        public var share: Double?
        /// For `transaction.revoked`: Apple's `revocationType` (`REFUND_FULL`, `REFUND_PRORATED`, `FAMILY_REVOKE`, or
        /// a newer one); absent when Apple did not say.
        public var revocationType: String?
        /// For `transaction.revoked`: the share of the purchase revoked so far, in Apple's milliunits (100000 is
        /// all of it). Each currency's revoked total is `floor(credit × revocationPercentage / 100000)`.
        public var revocationPercentage: Int?
        /// For `transaction.revoked` with `refunds.allowNegativeBalance` false: what the refund was due to take back
        /// but did not, the user's balance being too low (positive amounts per currency). Absent when none.
        public var shortfall: [String: Int64]?

        /// A transaction's data; the server writes these.
        public init(
            transactionId: String, originalTransactionId: String, orderId: String?, userId: String, productId: String,
            quantity: Int, grants: [String: Int64], environment: String, occurredAt: Date, sequence: Int64,
            cause: Cause? = nil, share: Double? = nil, revocationType: String? = nil, revocationPercentage: Int? = nil,
            shortfall: [String: Int64]? = nil
        ) {
            self.transactionId = transactionId
            self.originalTransactionId = originalTransactionId
            self.orderId = orderId
            self.userId = userId
            self.productId = productId
            self.quantity = quantity
            self.grants = grants
            self.environment = environment
            self.occurredAt = occurredAt
            self.sequence = sequence
            self.cause = cause
            self.share = share
            self.revocationType = revocationType
            self.revocationPercentage = revocationPercentage
            self.shortfall = shortfall
        }
    }
}
