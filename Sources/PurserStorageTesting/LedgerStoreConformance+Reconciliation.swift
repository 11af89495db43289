import Foundation
import PurserCore
import PurserStorage
import Testing

/// What reconciliation reads from the ledger: where each account's Transaction History is walked from.
extension LedgerStoreConformance {
    /// One anchor per account that owns transactions, its latest, named with the account and the Apple account it
    /// was bought under; a later credit moves it.
    public func listsEachAccountsLatestTransactionAsItsHistoryAnchor() async throws {
        func credit(_ id: String, to user: UserID, appleAccount: String?) async throws {
            let order = try await newOrder(user)
            var bought = transaction(id, token: order.id)
            bought.appTransactionID = appleAccount
            _ = try await store.settle(
                Submission(transaction: bought, assessment: .creditable(gold), source: .client(user)), now: now)
        }
        try await credit("t-anchor-1001", to: "hank", appleAccount: "apple-h1")
        try await credit("t-anchor-1002", to: "hank", appleAccount: "apple-h2")
        try await credit("t-anchor-1003", to: "iris", appleAccount: nil)
        func anchors() async throws -> [HistoryAnchor] {
            try await store.historyAnchors().filter { ["hank", "iris"].contains($0.owner) }
        }
        #expect(
            try await anchors() == [
                HistoryAnchor(owner: "hank", transactionID: "t-anchor-1002", appTransactionID: "apple-h2"),
                HistoryAnchor(owner: "iris", transactionID: "t-anchor-1003"),
            ])
        try await credit("t-anchor-1004", to: "hank", appleAccount: "apple-h1")
        #expect(
            try await anchors().first
                == HistoryAnchor(owner: "hank", transactionID: "t-anchor-1004", appTransactionID: "apple-h1"))
    }
}
