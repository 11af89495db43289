import Foundation
import Metrics
import PurserCore
import PurserStorage

/// Spends and deposits on a user's wallet: the game's backend through the admin API, and support's goodwill credits
/// from the console. Checks what a caller sent; the ledger applies it once by its id, within the balance.
public struct WalletService: Sendable {
    /// `POST /admin/v1/wallets/{userId}/transactions`.
    public struct Body: Decodable, Sendable {
        public var id: String
        public var amounts: [String: Int64]
        public var reason: String
        /// The caller's `metadata` as canonical JSON (`metadata(in:)`), compared on replay.
        var metadata: String?

        private enum CodingKeys: String, CodingKey { case id, amounts, reason }

        init(id: String, amounts: [String: Int64], reason: String, metadata: String? = nil) {
            self.id = id
            self.amounts = amounts
            self.reason = reason
            self.metadata = metadata
        }
    }

    /// The body's `metadata` as canonical JSON: keys sorted, so the same metadata sent twice is the same text and a
    /// replay compares equal. `invalid_metadata` when it is not a JSON object or is larger than 4 KB.
    static func metadata(in body: Data) throws -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let metadata = object["metadata"], !(metadata is NSNull)
        else { return nil }
        guard metadata is [String: Any],
            let canonical = try? JSONSerialization.data(
                withJSONObject: metadata, options: [.sortedKeys, .withoutEscapingSlashes]),
            canonical.count <= maxMetadataBytes
        else {
            throw ServiceError(.invalidMetadata, "metadata must be a JSON object of at most \(maxMetadataBytes) bytes")
        }
        return String(decoding: canonical, as: UTF8.self)
    }

    /// The answer: what applied and the balances it left; `replayed` when the id had applied before.
    public typealias Answer = WalletTransactionResponse

    let store: any LedgerStore
    let now: @Sendable () -> Date
    /// `wallet.clientSpend`: whether the app may spend from its own user's wallet.
    let clientSpend: Bool

    public init(store: any LedgerStore, clientSpend: Bool = false, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.clientSpend = clientSpend
        self.now = now
    }

    /// The largest amount of one currency in one request, and RevenueCat's largest balance.
    static let maxAmount: Int64 = 2_000_000_000
    /// What one amount of a request may be, either way (0 is refused on its own).
    static let amountRange: ClosedRange<Int64> = -2_000_000_000...2_000_000_000
    static let maxMetadataBytes = 4_096

    /// Applies `body` to `user`'s wallet once. Errors: `invalid_idempotency_id`, `invalid_amounts`, `reason_required`,
    /// `invalid_user_id`, `invalid_metadata` (400), `idempotency_conflict` (409, naming the fields that differ),
    /// `insufficient_balance` (422: nothing changed).
    public func apply(_ body: Body, to user: UserID, cause: String) async throws -> Answer {
        try Self.check(body, user: user)
        let request = WalletTransaction.Request(
            id: body.id, userID: user, amounts: body.amounts, reason: body.reason, metadata: body.metadata,
            cause: cause)
        let outcome = try await store.applyWalletTransaction(request, now: now())
        Counter(
            label: PurserMetrics.Name.walletTransactions,
            dimensions: [("kind", WalletHistoryEntry.walletKind(body.amounts)), ("outcome", outcome.label)]
        ).increment()
        switch outcome {
        case .applied(let change):
            return Answer(change, replayed: false)
        case .replayed(let change):
            return Answer(change, replayed: true)
        case .conflict(let fields):
            throw ServiceError(
                .idempotencyConflict,
                "id \(body.id.echoed) was applied before with another \(fields.joined(separator: ", ")); nothing was changed"
            )
        case .insufficient(let currency, let balance, let requested):
            throw ServiceError(
                .insufficientBalance,
                "\(user) has \(balance) \(currency), less than the \(requested) to spend; nothing was changed")
        }
    }

    /// `POST /v1/wallet/spend`: the signed-in user spends from their own wallet under `apply`'s rules, only while
    /// `wallet.clientSpend` is on (else 403 `client_spend_disabled`), and only spends: every amount is negative,
    /// because the app must not mint currency (`invalid_amounts`).
    public func spendFromApp(_ body: Body, by user: UserID) async throws -> Answer {
        try checkClientSpend()
        guard body.amounts.values.allSatisfy({ $0 < 0 }) else {
            throw ServiceError(.invalidAmounts, "the app can only spend: every amount is negative")
        }
        return try await apply(body, to: user, cause: "app")
    }

    /// Throws 403 `client_spend_disabled` unless `wallet.clientSpend` is on: checked before the body is read.
    public func checkClientSpend() throws {
        guard clientSpend else {
            throw ServiceError(
                .clientSpendDisabled,
                "spending from the app is off (wallet.clientSpend); the game's backend spends through the admin API")
        }
    }

    /// `invalid_amounts` unless `amounts` names 1 to 100 currencies, each 1 to 64 ASCII letters, digits, `_`, `-` or
    /// `.`, with an amount that is not 0 and within `amountRange` (no arithmetic: `Int64.min` has no magnitude).
    static func checkAmounts(_ amounts: [String: Int64]) throws {
        guard !amounts.isEmpty, amounts.count <= 100 else {
            throw ServiceError(.invalidAmounts, "amounts must name 1 to 100 currencies")
        }
        for (currency, amount) in amounts.sorted(by: { $0.key < $1.key }) {
            guard (1...64).contains(currency.schemaLength),
                currency.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_-.".contains($0)) })
            else {
                throw ServiceError(
                    .invalidAmounts, "a currency is 1 to 64 ASCII letters, digits, _, - or ., not \(currency.echoed)")
            }
            guard amount != 0, amountRange.contains(amount) else {
                throw ServiceError(
                    .invalidAmounts, "amounts.\(currency): \(amount) is 0 or beyond \(maxAmount) either way")
            }
        }
    }

    static func check(_ body: Body, user: UserID) throws {
        guard (1...255).contains(body.id.schemaLength), !body.id.isBlank, !body.id.hasPrefix(WalletHold.captureID(""))
        else {
            throw ServiceError(
                .invalidIdempotencyID,
                "id must be 1 to 255 characters, not blank, and not start with hold: (a capture's)")
        }
        try check(user)
        try checkAmounts(body.amounts)
        guard !body.reason.isBlank, body.reason.schemaLength <= 500 else {
            throw ServiceError(.reasonRequired, "reason must be 1 to 500 characters and not blank")
        }
    }
}

extension WalletService.Answer {
    init(_ change: WalletTransaction, replayed: Bool) {
        self.init(
            id: change.request.id, userId: change.request.userID, amounts: change.request.amounts,
            balances: change.balances, replayed: replayed)
    }
}

extension WalletTransaction.Outcome {
    /// The `outcome` label of `purser_wallet_transactions_total`.
    var label: String {
        switch self {
        case .applied: "applied"
        case .replayed: "replayed"
        case .conflict: "conflict"
        case .insufficient: "insufficient"
        }
    }
}
