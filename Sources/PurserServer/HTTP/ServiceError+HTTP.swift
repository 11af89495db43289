import AppStoreVerification
import Hummingbird

extension ServiceError.Code {
    /// The one place a service's failure becomes an HTTP status. A client's mistake is a 4xx; only Apple's or the
    /// configuration's trouble is a 5xx.
    var status: HTTPResponse.Status {
        if let verification = verificationCode {
            return verification == .malformed ? .badRequest : .unprocessableContent
        }
        if isRejection { return .unprocessableContent }
        switch self {
        case .invalidOrderID, .missingTransaction, .malformedReceipt, .invalidQuantity, .invalidReason, .reasonRequired:
            return .badRequest
        case .receiptRejected, .unknownProduct: return .unprocessableContent
        case .notFound: return .notFound
        case .orderDelivered: return .conflict
        case .appleAnswerUnverified: return .badGateway
        case .appStoreAPINotConfigured: return .serviceUnavailable
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
