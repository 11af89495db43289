import PurserCore

/// Where reconciliation reads one account's Transaction History from: the account and its latest known
/// transaction (Apple's history of a transaction is its customer's, so the latest one names the Apple ID the
/// account buys with now).
public struct HistoryAnchor: Sendable, Hashable {
    public var owner: UserID
    public var transactionID: String
    /// The anchor's `appTransactionId` (one per Apple account and app), when Apple gave one: anchors that share it
    /// share one history, so reconciliation walks them one after another and other accounts' beside them.
    public var appTransactionID: String?

    public init(owner: UserID, transactionID: String, appTransactionID: String? = nil) {
        self.owner = owner
        self.transactionID = transactionID
        self.appTransactionID = appTransactionID
    }
}
