import PurserCore

/// Where reconciliation reads one account's Transaction History from: the account and its latest known
/// transaction (Apple's history of a transaction is its customer's, so the latest one names the Apple ID the
/// account buys with now).
public struct HistoryAnchor: Sendable, Hashable {
    public var owner: UserID
    public var transactionID: String

    public init(owner: UserID, transactionID: String) {
        self.owner = owner
        self.transactionID = transactionID
    }
}
