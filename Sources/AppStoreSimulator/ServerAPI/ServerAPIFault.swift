import AppStoreVerification

/// A fault the simulator's App Store Server API answers one call with, for tests of retries:
/// `{"status": 429, "retryAfter": 1}` or `{"status": 503}`, optionally with Apple's `errorCode`.
public struct ServerAPIFault: Codable, Hashable, Sendable {
    /// The HTTP status: 429, a 5xx, or any other.
    public var status: Int
    /// Seconds, sent as `Retry-After`.
    public var retryAfter: Int?
    /// Apple's numeric code in the body; by default 4290000 for 429, 5000001 for 503, 5000000 for other 5xx and
    /// 4000000 for other statuses.
    public var errorCode: Int?

    public init(status: Int, retryAfter: Int? = nil, errorCode: Int? = nil) {
        self.status = status
        self.retryAfter = retryAfter
        self.errorCode = errorCode
    }

    /// The answer, as the error the routes render.
    var error: AppStoreServerAPIError {
        let code: AppStoreServerAPIError.Code
        let message: String
        switch status {
        case 429: (code, message) = (.rateLimitExceeded, "Rate limit exceeded.")
        case 401: (code, message) = (.unauthorized, "injected fault")
        case 503: (code, message) = (.generalInternalRetryable, "An unknown error occurred. Please try again.")
        case 500...: (code, message) = (.generalInternal, "An unknown error occurred.")
        default: (code, message) = (.generalBadRequest, "Invalid request.")
        }
        let number = errorCode ?? code.apiErrorCode
        let named = number.flatMap { AppStoreServerAPIError.Code(apiErrorCode: $0) } ?? code
        return AppStoreServerAPIError(
            named, message, httpStatus: status, apiErrorCode: number,
            retryAfter: retryAfter.map { .seconds($0) })
    }
}
