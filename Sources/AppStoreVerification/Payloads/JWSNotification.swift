/// The decoded payload of an App Store Server Notification V2 (Apple's `ResponseBodyV2DecodedPayload`).
public struct JWSNotification: Codable, Hashable, Sendable {
    /// The notification's `data` object; `signedTransactionInfo` is itself a JWS.
    public struct NotificationData: Codable, Hashable, Sendable {
        public var appAppleId: Int64?
        public var bundleId: String?
        public var bundleVersion: String?
        public var environment: String?
        public var signedTransactionInfo: String?
        public var signedRenewalInfo: String?
        public var status: Int?
        public var consumptionRequestReason: String?

        public init(appAppleId: Int64? = nil, bundleId: String?, environment: String?, signedTransactionInfo: String?) {
            self.appAppleId = appAppleId
            self.bundleId = bundleId
            self.environment = environment
            self.signedTransactionInfo = signedTransactionInfo
        }
    }

    /// A summary, sent instead of `data` for some notification types.
    public struct Summary: Codable, Hashable, Sendable {
        public var requestIdentifier: String?
        public var environment: String?
        public var appAppleId: Int64?
        public var bundleId: String?
        public var productId: String?
    }

    /// The app metadata of a `RESCIND_CONSENT` notification (sent instead of `data`); `signedAppTransactionInfo`
    /// is a JWS of the app transaction, which Purser records but does not read.
    public struct AppData: Codable, Hashable, Sendable {
        public var appAppleId: Int64?
        public var bundleId: String?
        public var environment: String?
        public var signedAppTransactionInfo: String?

        public init(appAppleId: Int64? = nil, bundleId: String?, environment: String?) {
            self.appAppleId = appAppleId
            self.bundleId = bundleId
            self.environment = environment
        }
    }

    /// Apple's type, kept as sent: types newer than this code (for example `RESCIND_CONSENT`) decode, are recorded
    /// and acknowledged.
    public var notificationType: String
    public var subtype: String?
    public var notificationUUID: String
    public var data: NotificationData?
    public var summary: Summary?
    public var appData: AppData?
    public var version: String?
    public var signedDate: Int64?

    public init(
        notificationType: String, subtype: String? = nil, notificationUUID: String, data: NotificationData?,
        version: String? = "2.0", signedDate: Int64?
    ) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.data = data
        self.version = version
        self.signedDate = signedDate
    }

    /// The bundle id the notification is for, from `data`, `summary` or `appData`.
    public var bundleId: String? { data?.bundleId ?? summary?.bundleId ?? appData?.bundleId }
    /// The environment the notification is for, from `data`, `summary` or `appData`.
    public var environment: String? { data?.environment ?? summary?.environment ?? appData?.environment }
    /// The app Apple id, from `data`, `summary` or `appData`.
    public var appAppleId: Int64? { data?.appAppleId ?? summary?.appAppleId ?? appData?.appAppleId }
    /// Whether the payload names an app at all: a notification of a shape newer than this code may not.
    public var namesApp: Bool { data != nil || summary != nil || appData != nil }
}

/// A verified notification with its nested signed transaction verified and decoded too.
public struct VerifiedNotification: Hashable, Sendable {
    public var notification: JWSNotification
    public var transaction: JWSTransaction?
}
