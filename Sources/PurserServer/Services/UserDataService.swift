import Crypto
import Foundation
import PurserCore
import PurserStorage

/// A user's data on request (Apple's guideline 5.1.1(v), the GDPR): everything the ledger holds about them as JSON,
/// and their erasure. An erasure replaces the user's id with a keyed pseudonym in every row and keeps the financial
/// history (amounts, transaction ids, dates): the accounts still add up, and nobody without the key can tell whose
/// they were. The same id always becomes the same pseudonym under one key.
public struct UserDataService: Sendable {
    let store: any LedgerStore
    let key: SymmetricKey?
    let now: @Sendable () -> Date

    /// `key`: `erasure.key`, else a key derived from `admin.token`; with neither, erasures are refused.
    public init(store: any LedgerStore, erasureKey: String?, adminToken: String?, now: @escaping @Sendable () -> Date) {
        self.store = store
        if let erasureKey, !erasureKey.isEmpty {
            key = SymmetricKey(data: Data(erasureKey.utf8))
        } else if let adminToken, !adminToken.isEmpty {
            key = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: Data(adminToken.utf8)), info: Data("purser erasure v1".utf8),
                outputByteCount: 32)
        } else {
            key = nil
        }
        self.now = now
    }

    /// What an erasure answers: the pseudonym, rows rewritten per table, callers' ids kept, the event, and how many
    /// rows still hold the id afterwards (only callers' ids, or rows written while it ran).
    public struct Erased: Sendable, Hashable, Codable {
        public var userId: String
        public var rows: [String: Int]
        public var kept: [String: Int]
        public var eventId: String
        public var remaining: Int
    }

    /// Everything the ledger holds about a user: each table's rows that hold the id.
    public struct Export: Sendable, Hashable, Codable {
        public var userId: String
        public var exportedAt: Date
        public var tables: [String: [[String: LedgerRow.Value]]]
    }

    /// `erased-` and 32 hex digits of HMAC-SHA256 of the id under the key.
    public func pseudonym(for user: UserID) throws -> UserID {
        guard let key else {
            throw ServiceError(
                .erasureNotConfigured, "erasures need erasure.key or admin.token: the key of the pseudonyms")
        }
        let mac = HMAC<SHA256>.authenticationCode(for: Data(user.rawValue.utf8), using: key)
        return UserID("erased-" + mac.prefix(16).map { String(format: "%02x", $0) }.joined())
    }

    /// Erases `user`, audited with `cause`. Errors: `invalid_user_id` (400), `not_found` (404: nothing holds the id, or only ids kept from an earlier erasure),
    /// `erasure_not_configured` (409).
    public func erase(_ user: UserID, cause: String) async throws -> Erased {
        try WalletService.check(user)
        let pseudonym = try pseudonym(for: user)
        guard let erasure = try await store.eraseUser(user, pseudonym: pseudonym, cause: cause, now: now()) else {
            throw ServiceError(
                .notFound,
                "the ledger holds nothing about \(user.rawValue) left to erase (erased before, or never known)")
        }
        let remaining = try await store.rowsMentioning(user.rawValue).count
        return Erased(
            userId: erasure.pseudonym, rows: erasure.rows, kept: erasure.kept, eventId: erasure.eventID,
            remaining: remaining)
    }

    /// Everything about `user`. Errors: `invalid_user_id` (400), `not_found` (404: nothing holds the id).
    public func export(_ user: UserID) async throws -> Export {
        try WalletService.check(user)
        let rows = try await store.rowsMentioning(user.rawValue)
        guard !rows.isEmpty else { throw ServiceError(.notFound, "the ledger holds nothing about \(user.rawValue)") }
        return Export(
            userId: user.rawValue, exportedAt: now(),
            tables: Dictionary(grouping: rows, by: \.table).mapValues { $0.map(\.values) })
    }
}
