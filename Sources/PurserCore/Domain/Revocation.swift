import Foundation

/// A refund (or Family Sharing revocation) Apple reported for one transaction, as the ledger's revoke takes it.
public struct Revocation: Hashable, Sendable {
    public var transactionID: String
    /// Apple's `revocationDate`.
    public var date: Date
    /// Apple's `revocationType`; `nil` from sources that predate it (a whole refund).
    public var type: RevocationType?
    /// Apple's `revocationPercentage` in milliunits as signed (0...100000); `nil` when absent.
    public var percentage: Int?
    /// Who or what reported it, for the audit log ("notification REFUND …", "reconciliation").
    public var cause: String
    /// `refunds.allowNegativeBalance`: when false, a revoke stops at a zero balance and records the shortfall.
    public var allowNegativeBalance: Bool

    public init(
        transactionID: String, date: Date, type: RevocationType? = nil, percentage: Int? = nil, cause: String,
        allowNegativeBalance: Bool = true
    ) {
        self.transactionID = transactionID
        self.date = date
        self.type = type
        self.percentage = percentage
        self.cause = cause
        self.allowNegativeBalance = allowNegativeBalance
    }

    /// The share of the purchase Apple has taken back so far, in milliunits (`RefundRules.share`).
    public var share: Int { RefundRules.share(type: type, percentage: percentage) }
}

extension AppleTransaction {
    /// The share of the purchase Apple has taken back, in milliunits; `nil` when Apple has not revoked it.
    public var revokedShare: Int? {
        revocationDate.map { _ in RefundRules.share(type: revocationType, percentage: revocationPercentage) }
    }
}
