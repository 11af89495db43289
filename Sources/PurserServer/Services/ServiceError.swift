import AppStoreVerification
import PurserCore

/// Why a Purser service refused or could not do what it was asked, in the domain's words. Compare by `code`: it is
/// stable and is what clients see; `message` is safe to show a client; `debugDescription` adds the cause and where it
/// was raised. `PurserServer/HTTP` maps each code to an HTTP status in one place (`ServiceError+HTTP`).
public struct ServiceError: Error, Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// A stable failure code, spelled in snake case on the wire.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Hashable, Sendable {
            case invalidOrderID, missingTransaction, malformedReceipt, receiptRejected, unknownProduct
            case invalidQuantity, invalidReason, notFound, orderDelivered, alreadyOwned, reasonRequired,
                appleAnswerUnverified
            case appStoreAPINotConfigured, invalidTransactionID, invalidUserID, alreadyCredited, notGrantable
            case appleUnavailable, invalidOverride
            case invalidIdempotencyID, invalidAmounts, invalidMetadata, idempotencyConflict, insufficientBalance
            case invalidCursor, invalidExpiry, captureExceedsHold, holdAlreadyCaptured, holdAlreadyVoided, holdExpired
            case invalidStatus, invalidLimit, invalidEventID, webhooksNotConfigured, clientSpendDisabled, draining
            case eventPruned, erasureNotConfigured
            case invalidKeyName, invalidScope, unknownApp, keyExists, forbiddenScope, appRequired
            case amountOutOfRange, invalidApps
            /// A signed payload that did not verify, by its verification code.
            case unverified(VerificationError.Code)
            /// A genuine transaction that can never be credited here, by its rejection code.
            case rejected(String)
        }
        fileprivate var base: Base
        fileprivate init(_ base: Base) { self.base = base }

        /// `orderId` is not a UUID.
        public static let invalidOrderID = Code(.invalidOrderID)
        /// A submission with neither a signed transaction nor a receipt.
        public static let missingTransaction = Code(.missingTransaction)
        /// A StoreKit 1 receipt that does not decode.
        public static let malformedReceipt = Code(.malformedReceipt)
        /// `verifyReceipt` refused the receipt for good.
        public static let receiptRejected = Code(.receiptRejected)
        /// An order for a product the catalog does not hold.
        public static let unknownProduct = Code(.unknownProduct)
        /// An order quantity outside 1...10, or above 1 for a non-consumable.
        public static let invalidQuantity = Code(.invalidQuantity)
        /// A cancel reason that is blank or too long.
        public static let invalidReason = Code(.invalidReason)
        /// No such order or transaction (or one that belongs to someone else).
        public static let notFound = Code(.notFound)
        /// The order was delivered and cannot be cancelled.
        public static let orderDelivered = Code(.orderDelivered)
        /// An order for a non-consumable the user already owns.
        public static let alreadyOwned = Code(.alreadyOwned)
        /// A support grant without the operator's reason.
        public static let reasonRequired = Code(.reasonRequired)
        /// Apple's answer to a support lookup did not verify.
        public static let appleAnswerUnverified = Code(.appleAnswerUnverified)
        /// A lookup that needs App Store Server API credentials, which are not configured.
        public static let appStoreAPINotConfigured = Code(.appStoreAPINotConfigured)
        /// A transaction id that is not one of Apple's (Apple answered `invalid_transaction_id`).
        public static let invalidTransactionID = Code(.invalidTransactionID)
        /// A support grant for a blank or overlong user id.
        public static let invalidUserID = Code(.invalidUserID)
        /// A support grant for a transaction the ledger already credited to another account (the message names it).
        public static let alreadyCredited = Code(.alreadyCredited)
        /// A support grant the ledger did not apply: Apple revoked the transaction, or its `appAccountToken` names an
        /// order that cannot take it.
        public static let notGrantable = Code(.notGrantable)
        /// The App Store Server API failed to answer a support lookup (unreachable, refused our credentials, or an
        /// answer Purser cannot read); nothing was changed.
        public static let appleUnavailable = Code(.appleUnavailable)
        /// A support grant asked to override a refusal that cannot be overridden.
        public static let invalidOverride = Code(.invalidOverride)
        /// A wallet transaction's id that is blank or longer than 255 characters.
        public static let invalidIdempotencyID = Code(.invalidIdempotencyID)
        /// Wallet amounts that are empty, zero, too large, or name a currency badly.
        public static let invalidAmounts = Code(.invalidAmounts)
        /// Arithmetic on amounts (a sum, product or negation of amounts, grants, quantities or balances) that would
        /// overflow or leave the wallet's range: refused, nothing written (`AmountError`).
        public static let amountOutOfRange = Code(.amountOutOfRange)
        /// A new key's `apps` that names no app (an empty list): leave `apps` out for a key of every app.
        public static let invalidApps = Code(.invalidApps)
        /// Wallet metadata that is not a JSON object, or too large.
        public static let invalidMetadata = Code(.invalidMetadata)
        /// A wallet transaction's id applied before with another request (the message names the fields).
        public static let idempotencyConflict = Code(.idempotencyConflict)
        /// A spend the balance cannot cover; nothing changed.
        public static let insufficientBalance = Code(.insufficientBalance)
        /// A history `cursor` this API did not hand out.
        public static let invalidCursor = Code(.invalidCursor)
        /// A hold's `expiresInSeconds` outside 1 second to a week.
        public static let invalidExpiry = Code(.invalidExpiry)
        /// A capture of more than the hold reserves, or of another currency.
        public static let captureExceedsHold = Code(.captureExceedsHold)
        /// A capture or void of a hold captured before (with other amounts, for a capture).
        public static let holdAlreadyCaptured = Code(.holdAlreadyCaptured)
        /// A capture of a hold voided before.
        public static let holdAlreadyVoided = Code(.holdAlreadyVoided)
        /// A capture or void of a hold past its expiry.
        public static let holdExpired = Code(.holdExpired)
        /// A webhook listing asked for a status other than pending, failed, dead or delivered.
        public static let invalidStatus = Code(.invalidStatus)
        /// A listing's `limit` outside 1...1000.
        public static let invalidLimit = Code(.invalidLimit)
        /// A webhook event id that is not `evt_` followed by 1 to 160 letters, digits, `_` or `-`.
        public static let invalidEventID = Code(.invalidEventID)
        /// A webhook operation (a replay, a test) with no endpoint configured.
        public static let webhooksNotConfigured = Code(.webhooksNotConfigured)
        /// `POST /v1/wallet/spend` while `wallet.clientSpend` is off: the game's backend spends instead.
        public static let clientSpendDisabled = Code(.clientSpendDisabled)
        /// `GET /ready` once the replica is shutting down gracefully.
        public static let draining = Code(.draining)
        /// A replay of a webhook event whose payload retention pruned (`retention.days`).
        public static let eventPruned = Code(.eventPruned)
        /// An erasure while neither `erasure.key` nor `admin.token` gives the key of its pseudonyms.
        public static let erasureNotConfigured = Code(.erasureNotConfigured)
        /// An API key's name that is not 1 to 64 letters, digits, `.`, `_` or `-`.
        public static let invalidKeyName = Code(.invalidKeyName)
        /// A scope no key can hold (the message names it), or none at all.
        public static let invalidScope = Code(.invalidScope)
        /// An app this Purser does not serve.
        public static let unknownApp = Code(.unknownApp)
        /// A request without `X-Purser-App` to a Purser that serves several apps.
        public static let appRequired = Code(.appRequired)
        /// A new API key named as an existing one.
        public static let keyExists = Code(.keyExists)
        /// An admin API key without the route's scope, or one giving a new key more than it holds.
        public static let forbiddenScope = Code(.forbiddenScope)
        /// A signed transaction or notification that did not verify.
        public static func unverified(_ code: VerificationError.Code) -> Code { Code(.unverified(code)) }
        /// A genuine transaction that is never creditable here (support tried to grant it).
        public static func rejected(_ reason: RejectionReason) -> Code { Code(.rejected(reason.code)) }

        /// The wire spelling, e.g. `invalid_order_id`.
        public var description: String {
            switch base {
            case .invalidOrderID: "invalid_order_id"
            case .missingTransaction: "missing_transaction"
            case .malformedReceipt: "malformed_receipt"
            case .receiptRejected: "receipt_rejected"
            case .unknownProduct: "unknown_product"
            case .invalidQuantity: "invalid_quantity"
            case .invalidReason: "invalid_reason"
            case .notFound: "not_found"
            case .orderDelivered: "order_delivered"
            case .alreadyOwned: "already_owned"
            case .reasonRequired: "reason_required"
            case .appleAnswerUnverified: "apple_answer_unverified"
            case .appStoreAPINotConfigured: "app_store_api_not_configured"
            case .invalidTransactionID: "invalid_transaction_id"
            case .invalidUserID: "invalid_user_id"
            case .alreadyCredited: "already_credited"
            case .notGrantable: "not_grantable"
            case .appleUnavailable: "apple_unavailable"
            case .invalidOverride: "invalid_override"
            case .invalidIdempotencyID: "invalid_idempotency_id"
            case .invalidAmounts: "invalid_amounts"
            case .invalidMetadata: "invalid_metadata"
            case .idempotencyConflict: "idempotency_conflict"
            case .insufficientBalance: "insufficient_balance"
            case .invalidCursor: "invalid_cursor"
            case .invalidExpiry: "invalid_expiry"
            case .captureExceedsHold: "capture_exceeds_hold"
            case .holdAlreadyCaptured: "hold_already_captured"
            case .holdAlreadyVoided: "hold_already_voided"
            case .holdExpired: "hold_expired"
            case .invalidStatus: "invalid_status"
            case .invalidLimit: "invalid_limit"
            case .invalidEventID: "invalid_event_id"
            case .webhooksNotConfigured: "webhooks_not_configured"
            case .clientSpendDisabled: "client_spend_disabled"
            case .draining: "draining"
            case .eventPruned: "event_pruned"
            case .erasureNotConfigured: "erasure_not_configured"
            case .invalidKeyName: "invalid_key_name"
            case .invalidScope: "invalid_scope"
            case .unknownApp: "unknown_app"
            case .keyExists: "key_exists"
            case .forbiddenScope: "forbidden_scope"
            case .appRequired: "app_required"
            case .amountOutOfRange: AmountError.code
            case .invalidApps: "invalid_apps"
            case .unverified(let code): code.description
            case .rejected(let code): code
            }
        }

        /// The verification code, when a signed payload did not verify.
        public var verificationCode: VerificationError.Code? {
            if case .unverified(let code) = base { return code }
            return nil
        }

        /// Whether a genuine transaction was refused as never creditable.
        public var isRejection: Bool {
            if case .rejected = base { return true }
            return false
        }
    }

    public var code: Code
    public var message: String
    public var cause: (any Error & Sendable)?
    public var file: String
    public var line: Int

    public init(
        _ code: Code, _ message: String, cause: (any Error & Sendable)? = nil, file: String = #fileID,
        line: Int = #line
    ) {
        self.code = code
        self.message = message
        self.cause = cause
        self.file = file
        self.line = line
    }

    /// A signed payload that did not verify, with the verifier's code and message.
    public init(unverified error: VerificationError, file: String = #fileID, line: Int = #line) {
        self.init(.unverified(error.code), error.message, cause: error, file: file, line: line)
    }

    /// Arithmetic on amounts that would overflow: `amount_out_of_range`, nothing written.
    public init(amount error: AmountError, file: String = #fileID, line: Int = #line) {
        self.init(.amountOutOfRange, error.message, cause: error, file: file, line: line)
    }

    public var description: String { "\(code): \(message)" }
    public var debugDescription: String {
        "ServiceError(\(code)): \(message)" + (cause.map { " (cause: \(String(reflecting: $0)))" } ?? "")
            + " at \(file):\(line)"
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
