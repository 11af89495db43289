import Foundation

extension AppStoreServerAPI {
    /// The body of Send Consumption Information, version 2 (`PUT /inApps/v2/transactions/consumption/{transactionId}`,
    /// App Store Server API 1.19; Apple calls it `ConsumptionRequest` and the older body `ConsumptionRequestV1`):
    /// what the app knows about a purchase the customer asked to refund, for any product type. Apple answers 202.
    ///
    /// Apple's rules, checked by `invalidField`: `customerConsented` must be true; `consumptionPercentage` is in
    /// milliunits, 0...100000, and must be 0 unless `deliveryStatus` is `DELIVERED`; `GRANT_PRORATED` for a
    /// consumable wants a `consumptionPercentage` above 0; an auto-renewable subscription takes none.
    public struct ConsumptionRequestV2: Codable, Hashable, Sendable {
        /// Must be `true`: the customer consented to sharing this data.
        public var customerConsented: Bool
        public var deliveryStatus: DeliveryStatus
        /// Whether the app offered a free sample or trial, or information about the content, before the purchase.
        public var sampleContentProvided: Bool
        public var refundPreference: RefundPreference?
        /// The share of the purchase the customer consumed, in milliunits (100000 is all of it).
        public var consumptionPercentage: Int?

        public init(
            customerConsented: Bool = true, deliveryStatus: DeliveryStatus, sampleContentProvided: Bool,
            refundPreference: RefundPreference? = nil, consumptionPercentage: Int? = nil
        ) {
            self.customerConsented = customerConsented
            self.deliveryStatus = deliveryStatus
            self.sampleContentProvided = sampleContentProvided
            self.refundPreference = refundPreference
            self.consumptionPercentage = consumptionPercentage
        }

        /// The first rule Apple would refuse the body for, as Apple's error code; `nil` when it is acceptable.
        /// `autoRenewable` says whether the transaction is an auto-renewable subscription.
        public func invalidField(autoRenewable: Bool = false) -> AppStoreServerAPIError.Code? {
            guard customerConsented else { return .invalidCustomerConsented }
            guard deliveryStatus.isKnown else { return .invalidDeliveryStatus }
            if let refundPreference, !refundPreference.isKnown { return .invalidRefundPreference }
            if autoRenewable {
                return consumptionPercentage == nil ? nil : .consumptionPercentageAutoRenewableSubscription
            }
            if let percentage = consumptionPercentage {
                guard (0...100_000).contains(percentage) else { return .consumptionPercentageOutOfRange }
                if deliveryStatus != .delivered, percentage != 0 { return .undeliveredConsumptionPercentageNonZero }
            }
            if refundPreference == .grantProrated, (consumptionPercentage ?? 0) == 0 {
                return .consumptionPercentageOutOfRange
            }
            return nil
        }
    }

    /// Whether the app delivered a purchase that works (v2's `deliveryStatus`). Values Apple adds later decode as
    /// themselves and encode unchanged.
    public struct DeliveryStatus: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let delivered = DeliveryStatus(rawValue: "DELIVERED")
        public static let undeliveredQualityIssue = DeliveryStatus(rawValue: "UNDELIVERED_QUALITY_ISSUE")
        public static let undeliveredWrongItem = DeliveryStatus(rawValue: "UNDELIVERED_WRONG_ITEM")
        public static let undeliveredServerOutage = DeliveryStatus(rawValue: "UNDELIVERED_SERVER_OUTAGE")
        public static let undeliveredOther = DeliveryStatus(rawValue: "UNDELIVERED_OTHER")
        /// The values Apple documents.
        public static let known: [DeliveryStatus] = [
            .delivered, .undeliveredQualityIssue, .undeliveredWrongItem, .undeliveredServerOutage, .undeliveredOther,
        ]

        public var isKnown: Bool { Self.known.contains(self) }
        public var description: String { rawValue }

    }

    /// The outcome the app would prefer (v2's `refundPreference`); unknown values decode as themselves.
    public struct RefundPreference: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let decline = RefundPreference(rawValue: "DECLINE")
        public static let grantFull = RefundPreference(rawValue: "GRANT_FULL")
        public static let grantProrated = RefundPreference(rawValue: "GRANT_PRORATED")
        /// The values Apple documents.
        public static let known: [RefundPreference] = [.decline, .grantFull, .grantProrated]

        public var isKnown: Bool { Self.known.contains(self) }
        public var description: String { rawValue }

    }
}
