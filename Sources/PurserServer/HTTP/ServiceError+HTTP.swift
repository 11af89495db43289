import AppStoreVerification
import Hummingbird
import PurserStorage

extension ServiceError.Code {
    /// The one place a service's failure becomes an HTTP status. A client's mistake is a 4xx; only Apple's or the
    /// configuration's trouble is a 5xx.
    var status: HTTPResponse.Status {
        if let verification = verificationCode {
            return verification == .malformed ? .badRequest : .unprocessableContent
        }
        if isRejection { return .unprocessableContent }
        switch self {
        case .invalidOrderID, .missingTransaction, .malformedReceipt, .invalidQuantity, .invalidReason, .reasonRequired,
            .invalidTransactionID, .invalidUserID, .invalidStatus, .invalidLimit, .invalidEventID, .invalidOverride,
            .invalidIdempotencyID, .invalidAmounts, .invalidMetadata, .invalidCursor, .invalidExpiry, .invalidKeyName,
            .invalidScope, .appRequired, .invalidApps:
            return .badRequest
        case .receiptRejected, .unknownProduct, .insufficientBalance, .captureExceedsHold, .amountOutOfRange:
            return .unprocessableContent
        case .notFound, .unknownApp: return .notFound
        case .clientSpendDisabled, .forbiddenScope: return .forbidden
        case .eventPruned: return .gone
        // webhooks_not_configured: the deployment's state, not a passing outage, so no 503 that invites a retry.
        case .orderDelivered, .alreadyOwned, .alreadyCredited, .notGrantable, .idempotencyConflict,
            .holdAlreadyCaptured, .holdAlreadyVoided, .holdExpired, .webhooksNotConfigured, .erasureNotConfigured,
            .keyExists:
            return .conflict
        case .appleAnswerUnverified, .appleUnavailable: return .badGateway
        case .appStoreAPINotConfigured, .draining: return .serviceUnavailable
        default: return .internalServerError
        }
    }
}

extension APIError {
    /// A service's failure as the API answers it: the code's status, the code and the message.
    init(_ error: ServiceError) {
        self.init(error.code.status, code: error.code.description, error.message)
    }
}

extension APIError {
    /// A ledger failure as the API answers it. The ledger unreachable (a database gone, a disk full or read-only) is a
    /// 503 `storage_unavailable`: not a decision, nothing was recorded, the client keeps its transaction and retries.
    /// Anything else from the ledger is a defect: a 500 that reveals nothing.
    init(_ error: StorageError) {
        switch error.code {
        case .unavailable:
            self.init(
                .serviceUnavailable, code: "storage_unavailable",
                "the ledger is unavailable; nothing was recorded, try again later")
        default:
            self.init(.internalServerError, code: "internal", "the server could not complete the request")
        }
    }
}
