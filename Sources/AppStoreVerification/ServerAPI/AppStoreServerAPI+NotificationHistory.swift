import Foundation

extension AppStoreServerAPI {
    /// The body of Get Notification History (`POST /inApps/v1/notifications/history?paginationToken=…`). Apple keeps
    /// 180 days of history; `transactionId` and `notificationType` cannot be combined.
    public struct NotificationHistoryRequest: Codable, Hashable, Sendable {
        /// Milliseconds since 1970, inclusive.
        public var startDate: Int64
        /// Milliseconds since 1970, exclusive.
        public var endDate: Int64
        /// For example `CONSUMPTION_REQUEST` or `REFUND`.
        public var notificationType: String?
        public var notificationSubtype: String?
        /// Only notifications about this transaction (any transaction id of the customer).
        public var transactionId: String?
        /// Only notifications that never reached the server.
        public var onlyFailures: Bool?

        public init(
            startDate: Date, endDate: Date, notificationType: String? = nil, notificationSubtype: String? = nil,
            transactionId: String? = nil, onlyFailures: Bool? = nil
        ) {
            self.startDate = startDate.appStoreMilliseconds
            self.endDate = endDate.appStoreMilliseconds
            self.notificationType = notificationType
            self.notificationSubtype = notificationSubtype
            self.transactionId = transactionId
            self.onlyFailures = onlyFailures
        }
    }

    /// One page of Get Notification History.
    public struct NotificationHistoryResponse: Codable, Hashable, Sendable {
        public var notificationHistory: [NotificationHistoryResponseItem]
        public var hasMore: Bool
        /// Pass it as `paginationToken` for the next page, while `hasMore`.
        public var paginationToken: String?

        public init(notificationHistory: [NotificationHistoryResponseItem], hasMore: Bool, paginationToken: String?) {
            self.notificationHistory = notificationHistory
            self.hasMore = hasMore
            self.paginationToken = paginationToken
        }
    }

    /// A notification Apple sent (or tried to send), with each attempt.
    public struct NotificationHistoryResponseItem: Codable, Hashable, Sendable {
        /// The notification as a JWS signed by the App Store (a `JWSNotification`).
        public var signedPayload: String
        public var sendAttempts: [SendAttemptItem]?

        public init(signedPayload: String, sendAttempts: [SendAttemptItem]? = nil) {
            self.signedPayload = signedPayload
            self.sendAttempts = sendAttempts
        }
    }

    /// One attempt to deliver a notification.
    public struct SendAttemptItem: Codable, Hashable, Sendable {
        /// Milliseconds since 1970.
        public var attemptDate: Int64?
        /// `SUCCESS`, `TIMED_OUT`, `TLS_ISSUE`, `CIRCULAR_REDIRECT`, `NO_RESPONSE`, `SOCKET_ISSUE`,
        /// `UNSUPPORTED_CHARSET`, `INVALID_RESPONSE`, `PREMATURE_CLOSE`, `UNSUCCESSFUL_HTTP_RESPONSE_CODE` or `OTHER`.
        public var sendAttemptResult: String?

        public init(attemptDate: Int64?, sendAttemptResult: String?) {
            self.attemptDate = attemptDate
            self.sendAttemptResult = sendAttemptResult
        }
    }
}
