import Foundation
import PurserCore

/// A page of a user's wallet history, newest first, and where the next one starts (`nil`: this is the last).
public struct WalletHistoryPage: Hashable, Sendable {
    public var entries: [WalletHistoryEntry]
    public var next: WalletHistoryEntry.Cursor?

    public init(entries: [WalletHistoryEntry], next: WalletHistoryEntry.Cursor?) {
        self.entries = entries
        self.next = next
    }
}

extension WalletHistoryPage {
    /// Before every entry: the first page starts here.
    static let start = WalletHistoryEntry.Cursor(at: .max, source: "z", row: .max)

    /// A page from up to `limit + 1` rows read after the cursor: the extra row only says that another page follows.
    init(rows: [(WalletHistoryEntry.Cursor, WalletHistoryEntry)], limit: Int) {
        let page = rows.prefix(limit)
        self.init(entries: page.map(\.1), next: rows.count > limit ? page.last?.0 : nil)
    }

    /// One history row of either source (`g`: a transaction's grants, `w`: a wallet transaction).
    static func entry(
        at: Int64, source: String, kind: String, reference: String, amounts: String, cause: String?, reason: String?,
        balances: String?
    ) throws -> WalletHistoryEntry {
        let moved = try WalletRows.amounts(amounts)
        return WalletHistoryEntry(
            kind: source == "w" ? WalletHistoryEntry.walletKind(moved) : kind, at: Date(millis: at), amounts: moved,
            reference: reference, cause: cause, reason: reason, balances: try balances.map(WalletRows.amounts))
    }
}

extension LedgerStore {
    /// `user`'s whole wallet history, oldest first, read a page at a time: for the rules that walk it in order (a
    /// consumption answer's first in, first out; chaos's wallet invariants).
    public func walletHistory(of user: UserID) async throws -> [WalletHistoryEntry] {
        var newestFirst: [WalletHistoryEntry] = []
        var cursor: WalletHistoryEntry.Cursor?
        repeat {
            let page = try await walletHistory(of: user, after: cursor, limit: 1_000)
            newestFirst += page.entries
            cursor = page.next
        } while cursor != nil
        return newestFirst.reversed()
    }
}
