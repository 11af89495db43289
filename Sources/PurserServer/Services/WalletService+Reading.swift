import Foundation
import PurserCore
import PurserStorage

extension WalletService {
    /// `GET /admin/v1/wallets/{userId}`: the balances, what open holds keep back, and what a spend may take.
    public struct View: Codable, Sendable, Hashable {
        public var userId: UserID
        public var balances: [String: Int64]
        /// What open, unexpired holds reserve.
        public var held: [String: Int64]
        /// What a spend may take: the balance less what is held (a debt is never available).
        public var available: [String: Int64]
    }

    /// `GET /admin/v1/wallets/{userId}/transactions`: a page of the history, newest first; `next` is the `cursor`
    /// of the following page, `nil` on the last.
    public struct History: Codable, Sendable, Hashable {
        public var userId: UserID
        public var entries: [WalletHistoryEntry]
        public var next: String?
    }

    public func view(of user: UserID) async throws -> View {
        try Self.check(user)
        let balances = try await store.balances(of: user)
        let held = try await store.heldAmounts(of: user, now: now())
        return View(
            userId: user, balances: balances, held: held,
            available: try WalletHold.available(balances: balances, held: held))
    }

    /// Errors: `invalid_user_id`, `invalid_cursor` (not a cursor this API handed out), `invalid_limit` (not 1...1000).
    public func history(of user: UserID, cursor: String?, limit: String?) async throws -> History {
        try Self.check(user)
        var after: WalletHistoryEntry.Cursor?
        if let cursor {
            guard let parsed = WalletHistoryEntry.Cursor(token: cursor) else {
                throw ServiceError(.invalidCursor, "cursor must be a next value this API returned")
            }
            after = parsed
        }
        let count = try limit.map {
            guard let value = Int($0), (1...1000).contains(value) else {
                throw ServiceError(.invalidLimit, "limit must be 1 to 1000")
            }
            return value
        }
        let page = try await store.walletHistory(of: user, after: after, limit: count ?? 100)
        return History(userId: user, entries: page.entries, next: page.next?.token)
    }

    static func check(_ user: UserID) throws {
        guard !user.rawValue.isBlank, user.rawValue.schemaLength <= 128 else {
            throw ServiceError(.invalidUserID, "userId must be 1 to 128 characters and not blank")
        }
    }
}
