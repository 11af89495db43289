import PurserCore

/// One user's purchases as support sees them: every order they made and every Apple transaction that is theirs or
/// names one of their orders, newest first. A purchase the ledger refused or could not bind shows here too.
public struct UserPurchases: Hashable, Sendable {
    /// The user's orders, newest first: waiting, delivered and cancelled.
    public var orders: [Order]
    /// Transactions credited to the user (and later revoked), and transactions never credited whose `appAccountToken`
    /// names one of the user's orders or the user's account token (rejected, unbound), newest recorded first.
    public var transactionIDs: [String]

    public init(orders: [Order], transactionIDs: [String]) {
        self.orders = orders
        self.transactionIDs = transactionIDs
    }

    /// Migration 8 of both stores (SQLite has no 7): finds the purchases never credited by the order their token
    /// names. Partial, so the credited majority never enters it and a credit pays nothing for it.
    static let unsettledTokenIndex = [
        "CREATE INDEX apple_transactions_unsettled_token ON apple_transactions (app_account_token) "
            + "WHERE state <> 'credited'"
    ]
}
