import Foundation
import PurserCore
import PurserStorage
import Testing

/// What reconciliation reads from the ledger: where each account's Transaction History is walked from.
extension LedgerStoreConformance {
    /// One anchor per account that owns transactions, its latest, named with the account; a later credit moves it.
    public func listsEachAccountsLatestTransactionAsItsHistoryAnchor() async throws {
        func credit(_ id: String, to user: UserID) async throws {
            let order = try await newOrder(user)
            _ = try await store.settle(
                Submission(
                    transaction: transaction(id, token: order.id), assessment: .creditable(gold),
                    source: .client(user)), now: now)
        }
        try await credit("t-anchor-1001", to: "hank")
        try await credit("t-anchor-1002", to: "hank")
        try await credit("t-anchor-1003", to: "iris")
        func anchors() async throws -> [HistoryAnchor] {
            try await store.historyAnchors().filter { ["hank", "iris"].contains($0.owner) }
        }
        #expect(
            try await anchors() == [
                HistoryAnchor(owner: "hank", transactionID: "t-anchor-1002"),
                HistoryAnchor(owner: "iris", transactionID: "t-anchor-1003"),
            ])
        try await credit("t-anchor-1004", to: "hank")
        #expect(try await anchors().first == HistoryAnchor(owner: "hank", transactionID: "t-anchor-1004"))
    }
}
