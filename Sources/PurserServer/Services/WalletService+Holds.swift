import Foundation
import PurserCore
import PurserStorage

extension WalletService {
    /// `POST /admin/v1/wallets/{userId}/holds`.
    public struct HoldBody: Decodable, Sendable {
        public var id: String
        public var amounts: [String: Int64]
        public var expiresInSeconds: Int
        public var reason: String
    }

    /// `POST /admin/v1/holds/{id}/capture`: all of the hold when `amounts` is absent.
    public struct CaptureBody: Decodable, Sendable {
        public var amounts: [String: Int64]?
    }

    /// A hold as the API answers it; `balances` after a capture; `replayed` when the same call was answered before.
    public struct HoldAnswer: Codable, Sendable, Hashable {
        public var id: String
        public var userId: UserID
        public var amounts: [String: Int64]
        public var state: String
        public var captured: [String: Int64]?
        public var expiresAt: Date
        public var balances: [String: Int64]?
        public var replayed: Bool
    }

    /// The longest a hold may stay open: a week.
    static let maxHoldSeconds = 7 * 86_400

    /// Reserves `body.amounts` on `user`'s wallet once by `body.id`. Errors as for spends, and `invalid_expiry` (400:
    /// not 1 second to a week).
    public func placeHold(_ body: HoldBody, for user: UserID, cause: String) async throws -> HoldAnswer {
        guard body.amounts.values.allSatisfy({ $0 > 0 }) else {
            throw ServiceError(.invalidAmounts, "a hold reserves positive amounts")
        }
        try Self.check(Body(id: body.id, amounts: body.amounts, reason: body.reason), user: user)
        guard (1...Self.maxHoldSeconds).contains(body.expiresInSeconds) else {
            throw ServiceError(.invalidExpiry, "expiresInSeconds must be 1 to \(Self.maxHoldSeconds)")
        }
        let request = WalletHold.Request(
            id: body.id, userID: user, amounts: body.amounts, reason: body.reason,
            expiresInSeconds: body.expiresInSeconds, cause: cause)
        switch try await store.placeHold(request, now: now()) {
        case .placed(let hold): return HoldAnswer(hold, balances: nil, replayed: false)
        case .replayed(let hold): return HoldAnswer(hold, balances: nil, replayed: true)
        case .conflict(let fields):
            throw ServiceError(
                .idempotencyConflict,
                "hold \(body.id.echoed) was placed before with another \(fields.joined(separator: ", ")); nothing was changed"
            )
        case .insufficient(let currency, let available, let requested):
            throw ServiceError(
                .insufficientBalance,
                "\(user) has \(available) \(currency) available, less than the \(requested) to hold; nothing was changed"
            )
        }
    }

    /// Takes all or part of the hold `id` and releases the rest. Errors: `not_found` (404), `hold_already_captured`,
    /// `hold_already_voided`, `hold_expired` (409), `capture_exceeds_hold` (422: more than it reserves).
    public func capture(_ id: String, amounts: [String: Int64]?, cause: String) async throws -> HoldAnswer {
        try answer(await store.captureHold(id, amounts: amounts, cause: cause, now: now()), id: id)
    }

    /// Releases the hold `id`. Errors as for a capture.
    public func void(_ id: String, cause: String) async throws -> HoldAnswer {
        try answer(await store.voidHold(id, cause: cause, now: now()), id: id)
    }

    private func answer(_ resolution: WalletHold.Resolution, id: String) throws -> HoldAnswer {
        switch resolution {
        case .resolved(let hold, let change): return HoldAnswer(hold, balances: change?.balances, replayed: false)
        case .replayed(let hold, let change): return HoldAnswer(hold, balances: change?.balances, replayed: true)
        case .notFound: throw ServiceError(.notFound, "no hold \(id.echoed)")
        case .exceeds:
            throw ServiceError(
                .captureExceedsHold, "a capture takes at most what hold \(id.echoed) reserves, of its currencies")
        case .alreadyResolved(let hold):
            switch hold.state {
            case .captured:
                throw ServiceError(.holdAlreadyCaptured, "hold \(id.echoed) was captured; nothing was changed")
            case .voided: throw ServiceError(.holdAlreadyVoided, "hold \(id.echoed) was voided; nothing was changed")
            case .expired, .open: throw ServiceError(.holdExpired, "hold \(id.echoed) expired; nothing was changed")
            }
        }
    }
}

extension WalletService.HoldAnswer {
    init(_ hold: WalletHold, balances: [String: Int64]?, replayed: Bool) {
        self.init(
            id: hold.request.id, userId: hold.request.userID, amounts: hold.request.amounts,
            state: hold.state.rawValue, captured: hold.captured, expiresAt: hold.expiresAt, balances: balances,
            replayed: replayed)
    }
}
