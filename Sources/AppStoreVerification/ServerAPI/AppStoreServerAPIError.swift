/// A failed call to the App Store Server API. Compare errors by `code`; `description` is safe to log or show
/// (it never contains the bearer token); `debugDescription` adds where it was raised.
///
/// Apple's numeric error codes (`{"errorCode": 4040010, "errorMessage": "…"}`) map to named codes, spelled in snake
/// case after Apple's error names (`transaction_id_not_found`, `invalid_request_revision`, …); the number itself is
/// kept in `apiErrorCode`. Codes Purser does not name become `api_error` with the number still in `apiErrorCode`.
public struct AppStoreServerAPIError: Error, Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// A stable failure code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let base: Base
        init(_ base: Base) { self.base = base }

        /// Apple's numeric code for this failure, if Apple has one (`4040010` for `transaction_id_not_found`).
        public var apiErrorCode: Int? { base.apiErrorCode }
        /// Whether Apple says the same request may succeed later.
        public var isRetryable: Bool { base.isRetryable }
        /// The wire spelling, e.g. `transaction_id_not_found`.
        public var description: String { base.rawValue }

        /// The named code for one of Apple's numeric error codes; `nil` for numbers Purser does not name.
        public init?(apiErrorCode: Int) {
            guard let base = Base.byAPIErrorCode[apiErrorCode] else { return nil }
            self.base = base
        }

        // Raised by the client itself.
        /// HTTP 401: the bearer token was refused (wrong key, issuer, bundle, audience, or expired).
        public static let unauthorized = Code(.unauthorized)
        /// 5xx answers, time-outs or transport failures on every attempt the retry policy allows.
        public static let serverUnavailable = Code(.serverUnavailable)
        /// An answer that is not what Apple documents (a 2xx body that does not decode, a 4xx without Apple's JSON).
        public static let unexpectedResponse = Code(.unexpectedResponse)
        /// A numeric Apple error code that has no name here; see `apiErrorCode`.
        public static let apiError = Code(.apiError)
        /// The client's configuration cannot work (for example a token lifetime over 60 minutes).
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// The private key is not a P-256 key in PEM (PKCS #8, as App Store Connect's `.p8`) or SEC 1.
        public static let invalidKey = Code(.invalidKey)

        // Apple's, HTTP 400.
        public static let generalBadRequest = Code(.generalBadRequest)
        public static let invalidAppIdentifier = Code(.invalidAppIdentifier)
        public static let invalidRequestRevision = Code(.invalidRequestRevision)
        public static let invalidTransactionId = Code(.invalidTransactionId)
        public static let invalidOriginalTransactionId = Code(.invalidOriginalTransactionId)
        public static let startDateTooFarInPast = Code(.startDateTooFarInPast)
        public static let startDateAfterEndDate = Code(.startDateAfterEndDate)
        public static let invalidPaginationToken = Code(.invalidPaginationToken)
        public static let invalidStartDate = Code(.invalidStartDate)
        public static let invalidEndDate = Code(.invalidEndDate)
        public static let paginationTokenExpired = Code(.paginationTokenExpired)
        public static let invalidNotificationType = Code(.invalidNotificationType)
        public static let multipleFiltersSupplied = Code(.multipleFiltersSupplied)
        public static let invalidSort = Code(.invalidSort)
        public static let invalidProductType = Code(.invalidProductType)
        public static let invalidProductId = Code(.invalidProductId)
        public static let invalidInAppOwnershipType = Code(.invalidInAppOwnershipType)
        public static let invalidRevoked = Code(.invalidRevoked)
        public static let invalidAccountTenure = Code(.invalidAccountTenure)
        public static let invalidAppAccountToken = Code(.invalidAppAccountToken)
        public static let invalidConsumptionStatus = Code(.invalidConsumptionStatus)
        public static let invalidCustomerConsented = Code(.invalidCustomerConsented)
        public static let invalidDeliveryStatus = Code(.invalidDeliveryStatus)
        public static let invalidLifetimeDollarsPurchased = Code(.invalidLifetimeDollarsPurchased)
        public static let invalidLifetimeDollarsRefunded = Code(.invalidLifetimeDollarsRefunded)
        public static let invalidPlatform = Code(.invalidPlatform)
        public static let invalidPlayTime = Code(.invalidPlayTime)
        public static let invalidSampleContentProvided = Code(.invalidSampleContentProvided)
        public static let invalidUserStatus = Code(.invalidUserStatus)
        public static let invalidTransactionNotConsumable = Code(.invalidTransactionNotConsumable)
        public static let invalidTransactionTypeNotSupported = Code(.invalidTransactionTypeNotSupported)
        public static let invalidAppAccountTokenUUID = Code(.invalidAppAccountTokenUUID)
        public static let familyTransactionNotSupported = Code(.familyTransactionNotSupported)
        public static let transactionIdIsNotOriginalTransactionId = Code(.transactionIdIsNotOriginalTransactionId)
        public static let appTransactionIdNotSupported = Code(.appTransactionIdNotSupported)
        /// Send Consumption Information v2's body errors. Apple's pages give no numbers for these four: the
        /// simulator answers them with 4000000 and the code in its message.
        public static let invalidRefundPreference = Code(.invalidRefundPreference)
        public static let consumptionPercentageOutOfRange = Code(.consumptionPercentageOutOfRange)
        public static let undeliveredConsumptionPercentageNonZero = Code(.undeliveredConsumptionPercentageNonZero)
        public static let consumptionPercentageAutoRenewableSubscription = Code(
            .consumptionPercentageAutoRenewableSubscription)
        // Apple's, HTTP 404.
        public static let accountNotFound = Code(.accountNotFound)
        public static let accountNotFoundRetryable = Code(.accountNotFoundRetryable)
        public static let appNotFound = Code(.appNotFound)
        public static let appNotFoundRetryable = Code(.appNotFoundRetryable)
        public static let originalTransactionIdNotFound = Code(.originalTransactionIdNotFound)
        public static let originalTransactionIdNotFoundRetryable = Code(.originalTransactionIdNotFoundRetryable)
        public static let serverNotificationURLNotFound = Code(.serverNotificationURLNotFound)
        public static let testNotificationNotFound = Code(.testNotificationNotFound)
        public static let transactionIdNotFound = Code(.transactionIdNotFound)
        // Apple's, HTTP 429 and 500.
        /// Too many requests; the retry policy's attempts (or `maximumRetryAfter`) were not enough.
        public static let rateLimitExceeded = Code(.rateLimitExceeded)
        public static let generalInternal = Code(.generalInternal)
        public static let generalInternalRetryable = Code(.generalInternalRetryable)
    }

    public var code: Code
    public var message: String
    /// The HTTP status Apple answered with, if an answer arrived.
    public var httpStatus: Int?
    /// Apple's numeric `errorCode`, when the answer carried one (also for codes without a name here).
    public var apiErrorCode: Int?
    /// How long Apple asked to wait (`Retry-After`), for `rate_limit_exceeded`.
    public var retryAfter: Duration?
    /// What went wrong underneath (a transport error, a decoding error), for logs.
    public var cause: (any Error & Sendable)?
    public var file: String
    public var line: Int

    public init(
        _ code: Code, _ message: String, httpStatus: Int? = nil, apiErrorCode: Int? = nil,
        retryAfter: Duration? = nil, cause: (any Error & Sendable)? = nil,
        file: String = #fileID, line: Int = #line
    ) {
        self.code = code
        self.message = message
        self.httpStatus = httpStatus
        self.apiErrorCode = apiErrorCode ?? code.apiErrorCode
        self.retryAfter = retryAfter
        self.cause = cause
        self.file = file
        self.line = line
    }

    public var description: String { "\(code): \(message)" }

    public var debugDescription: String {
        var text = "AppStoreServerAPIError(\(code)): \(message)"
        if let httpStatus { text += " [HTTP \(httpStatus)]" }
        if let apiErrorCode { text += " [errorCode \(apiErrorCode)]" }
        if let cause { text += " (cause: \(String(reflecting: cause)))" }
        return text + " at \(file):\(line)"
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
