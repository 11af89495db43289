import Foundation

extension AppStoreServerAPI {
    /// The body of Send Consumption Information (`PUT /inApps/v1/transactions/consumption/{transactionId}`), Apple's
    /// `ConsumptionRequest` (version 1): what the app knows about a consumable the customer asked to refund, sent
    /// within 12 hours of a `CONSUMPTION_REQUEST` notification. Every field but `refundPreference` is required;
    /// the integer fields take the values Apple documents (listed on each, and in `validRanges`).
    public struct ConsumptionRequest: Codable, Hashable, Sendable {
        /// Must be `true`: the customer consented to sharing this data.
        public var customerConsented: Bool
        /// 0 undeclared, 1 not consumed, 2 partially consumed, 3 fully consumed.
        public var consumptionStatus: Int
        /// 0 undeclared, 1 Apple platform, 2 non-Apple platform.
        public var platform: Int
        /// Whether the app offered a free sample or trial.
        public var sampleContentProvided: Bool
        /// 0 delivered and working, 1 not delivered (quality issue), 2 wrong item, 3 not delivered (server outage),
        /// 4 not delivered (in-game currency change), 5 not delivered (other reason).
        public var deliveryStatus: Int
        /// The purchase's `appAccountToken` (a UUID), or the empty string if there is none.
        public var appAccountToken: String
        /// Age of the customer's account: 0 undeclared, 1 0–3 days, 2 3–10 days, 3 10–30 days, 4 30–90 days,
        /// 5 90–180 days, 6 180–365 days, 7 over 365 days.
        public var accountTenure: Int
        /// Time played: 0 undeclared, 1 0–5 minutes, 2 5–60 minutes, 3 1–6 hours, 4 6–24 hours, 5 1–4 days,
        /// 6 4–16 days, 7 over 16 days.
        public var playTime: Int
        /// 0 undeclared, 1 $0, 2 $0.01–49.99, 3 $50–99.99, 4 $100–499.99, 5 $500–999.99, 6 $1000–1999.99,
        /// 7 $2000 or more.
        public var lifetimeDollarsRefunded: Int
        /// Same buckets as `lifetimeDollarsRefunded`.
        public var lifetimeDollarsPurchased: Int
        /// 0 undeclared, 1 active, 2 suspended, 3 terminated, 4 limited access.
        public var userStatus: Int
        /// 0 undeclared, 1 prefer granting the refund, 2 prefer declining it, 3 no preference.
        public var refundPreference: Int?

        public init(
            customerConsented: Bool = true, consumptionStatus: Int, platform: Int, sampleContentProvided: Bool,
            deliveryStatus: Int, appAccountToken: UUID?, accountTenure: Int, playTime: Int,
            lifetimeDollarsRefunded: Int, lifetimeDollarsPurchased: Int, userStatus: Int,
            refundPreference: Int? = nil
        ) {
            self.customerConsented = customerConsented
            self.consumptionStatus = consumptionStatus
            self.platform = platform
            self.sampleContentProvided = sampleContentProvided
            self.deliveryStatus = deliveryStatus
            self.appAccountToken = appAccountToken?.uuidString.lowercased() ?? ""
            self.accountTenure = accountTenure
            self.playTime = playTime
            self.lifetimeDollarsRefunded = lifetimeDollarsRefunded
            self.lifetimeDollarsPurchased = lifetimeDollarsPurchased
            self.userStatus = userStatus
            self.refundPreference = refundPreference
        }

        /// Each integer field's JSON name, the values Apple accepts, and the error Apple answers otherwise.
        public static let validRanges: [(field: String, values: ClosedRange<Int>, error: AppStoreServerAPIError.Code)] =
            [
                ("consumptionStatus", 0...3, .invalidConsumptionStatus),
                ("platform", 0...2, .invalidPlatform),
                ("deliveryStatus", 0...5, .invalidDeliveryStatus),
                ("accountTenure", 0...7, .invalidAccountTenure),
                ("playTime", 0...7, .invalidPlayTime),
                ("lifetimeDollarsRefunded", 0...7, .invalidLifetimeDollarsRefunded),
                ("lifetimeDollarsPurchased", 0...7, .invalidLifetimeDollarsPurchased),
                ("userStatus", 0...4, .invalidUserStatus),
            ]

        /// The first field Apple would refuse, as Apple's error code; `nil` when the request is acceptable.
        public var invalidField: AppStoreServerAPIError.Code? {
            guard customerConsented else { return .invalidCustomerConsented }
            let values = [
                consumptionStatus, platform, deliveryStatus, accountTenure, playTime, lifetimeDollarsRefunded,
                lifetimeDollarsPurchased, userStatus,
            ]
            for (value, range) in zip(values, Self.validRanges) where !range.values.contains(value) {
                return range.error
            }
            if let refundPreference, !(0...3).contains(refundPreference) { return .generalBadRequest }
            if !appAccountToken.isEmpty, UUID(uuidString: appAccountToken) == nil { return .invalidAppAccountToken }
            return nil
        }
    }
}
