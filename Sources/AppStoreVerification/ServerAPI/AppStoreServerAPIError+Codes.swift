extension AppStoreServerAPIError.Code {
    /// Every code, with Apple's numbers (see Apple's "App Store Server API — Error codes"). Internal so that cases
    /// can be added without breaking callers.
    enum Base: String, Hashable, Sendable, CaseIterable {
        case unauthorized
        case serverUnavailable = "server_unavailable"
        case unexpectedResponse = "unexpected_response"
        case apiError = "api_error"
        case invalidConfiguration = "invalid_configuration"
        case invalidKey = "invalid_key"

        case generalBadRequest = "general_bad_request"
        case invalidAppIdentifier = "invalid_app_identifier"
        case invalidRequestRevision = "invalid_request_revision"
        case invalidTransactionId = "invalid_transaction_id"
        case invalidOriginalTransactionId = "invalid_original_transaction_id"
        case startDateTooFarInPast = "start_date_too_far_in_past"
        case startDateAfterEndDate = "start_date_after_end_date"
        case invalidPaginationToken = "invalid_pagination_token"
        case invalidStartDate = "invalid_start_date"
        case invalidEndDate = "invalid_end_date"
        case paginationTokenExpired = "pagination_token_expired"
        case invalidNotificationType = "invalid_notification_type"
        case multipleFiltersSupplied = "multiple_filters_supplied"
        case invalidSort = "invalid_sort"
        case invalidProductType = "invalid_product_type"
        case invalidProductId = "invalid_product_id"
        case invalidInAppOwnershipType = "invalid_in_app_ownership_type"
        case invalidRevoked = "invalid_revoked"
        case invalidAccountTenure = "invalid_account_tenure"
        case invalidAppAccountToken = "invalid_app_account_token"
        case invalidConsumptionStatus = "invalid_consumption_status"
        case invalidCustomerConsented = "invalid_customer_consented"
        case invalidDeliveryStatus = "invalid_delivery_status"
        case invalidLifetimeDollarsPurchased = "invalid_lifetime_dollars_purchased"
        case invalidLifetimeDollarsRefunded = "invalid_lifetime_dollars_refunded"
        case invalidPlatform = "invalid_platform"
        case invalidPlayTime = "invalid_play_time"
        case invalidSampleContentProvided = "invalid_sample_content_provided"
        case invalidUserStatus = "invalid_user_status"
        case invalidTransactionNotConsumable = "invalid_transaction_not_consumable"
        case invalidTransactionTypeNotSupported = "invalid_transaction_type_not_supported"
        case invalidAppAccountTokenUUID = "invalid_app_account_token_uuid"
        case familyTransactionNotSupported = "family_transaction_not_supported"
        case transactionIdIsNotOriginalTransactionId = "transaction_id_is_not_original_transaction_id"
        case appTransactionIdNotSupported = "app_transaction_id_not_supported"
        case invalidRefundPreference = "invalid_refund_preference"
        case consumptionPercentageOutOfRange = "consumption_percentage_out_of_range"
        case undeliveredConsumptionPercentageNonZero = "undelivered_consumption_percentage_non_zero"
        case consumptionPercentageAutoRenewableSubscription = "consumption_percentage_auto_renewable_subscription"

        case accountNotFound = "account_not_found"
        case accountNotFoundRetryable = "account_not_found_retryable"
        case appNotFound = "app_not_found"
        case appNotFoundRetryable = "app_not_found_retryable"
        case originalTransactionIdNotFound = "original_transaction_id_not_found"
        case originalTransactionIdNotFoundRetryable = "original_transaction_id_not_found_retryable"
        case serverNotificationURLNotFound = "server_notification_url_not_found"
        case testNotificationNotFound = "test_notification_not_found"
        case transactionIdNotFound = "transaction_id_not_found"

        case rateLimitExceeded = "rate_limit_exceeded"
        case generalInternal = "general_internal"
        case generalInternalRetryable = "general_internal_retryable"

        var apiErrorCode: Int? {
            switch self {
            case .unauthorized, .serverUnavailable, .unexpectedResponse, .apiError, .invalidConfiguration, .invalidKey,
                .invalidRefundPreference, .consumptionPercentageOutOfRange, .undeliveredConsumptionPercentageNonZero,
                .consumptionPercentageAutoRenewableSubscription:
                nil
            case .generalBadRequest: 4_000_000
            case .invalidAppIdentifier: 4_000_002
            case .invalidRequestRevision: 4_000_005
            case .invalidTransactionId: 4_000_006
            case .invalidOriginalTransactionId: 4_000_008
            case .startDateTooFarInPast: 4_000_012
            case .startDateAfterEndDate: 4_000_013
            case .invalidPaginationToken: 4_000_014
            case .invalidStartDate: 4_000_015
            case .invalidEndDate: 4_000_016
            case .paginationTokenExpired: 4_000_017
            case .invalidNotificationType: 4_000_018
            case .multipleFiltersSupplied: 4_000_019
            case .invalidSort: 4_000_021
            case .invalidProductType: 4_000_022
            case .invalidProductId: 4_000_023
            case .invalidInAppOwnershipType: 4_000_026
            case .invalidRevoked: 4_000_030
            case .invalidAccountTenure: 4_000_032
            case .invalidAppAccountToken: 4_000_033
            case .invalidConsumptionStatus: 4_000_034
            case .invalidCustomerConsented: 4_000_035
            case .invalidDeliveryStatus: 4_000_036
            case .invalidLifetimeDollarsPurchased: 4_000_037
            case .invalidLifetimeDollarsRefunded: 4_000_038
            case .invalidPlatform: 4_000_039
            case .invalidPlayTime: 4_000_040
            case .invalidSampleContentProvided: 4_000_041
            case .invalidUserStatus: 4_000_042
            case .invalidTransactionNotConsumable: 4_000_043
            case .invalidTransactionTypeNotSupported: 4_000_047
            case .appTransactionIdNotSupported: 4_000_048
            case .invalidAppAccountTokenUUID: 4_000_183
            case .familyTransactionNotSupported: 4_000_185
            case .transactionIdIsNotOriginalTransactionId: 4_000_187
            case .accountNotFound: 4_040_001
            case .accountNotFoundRetryable: 4_040_002
            case .appNotFound: 4_040_003
            case .appNotFoundRetryable: 4_040_004
            case .originalTransactionIdNotFound: 4_040_005
            case .originalTransactionIdNotFoundRetryable: 4_040_006
            case .serverNotificationURLNotFound: 4_040_007
            case .testNotificationNotFound: 4_040_008
            case .transactionIdNotFound: 4_040_010
            case .rateLimitExceeded: 4_290_000
            case .generalInternal: 5_000_000
            case .generalInternalRetryable: 5_000_001
            }
        }

        var isRetryable: Bool {
            switch self {
            case .serverUnavailable, .rateLimitExceeded, .generalInternal, .generalInternalRetryable,
                .accountNotFoundRetryable, .appNotFoundRetryable, .originalTransactionIdNotFoundRetryable:
                true
            default: false
            }
        }

        static let byAPIErrorCode: [Int: Base] = Dictionary(
            uniqueKeysWithValues: allCases.compactMap { base in base.apiErrorCode.map { ($0, base) } })
    }
}
