import AppStoreVerification

extension ServerConfiguration {
    /// `receipts.verification`, or its default: `local` when App Store Server API credentials exist (`serverAPI`),
    /// else `verifyReceipt`.
    /// - Throws: `ConfigurationError` for `local` without App Store Server API credentials.
    func receiptVerification(serverAPI: Bool) throws(ConfigurationError) -> ReceiptVerification {
        guard let chosen = receipts.verification else { return serverAPI ? .local : .verifyReceipt }
        guard chosen != .local || serverAPI else {
            throw ConfigurationError(
                "receipts.verification local confirms each transaction with the App Store Server API: set "
                    + "appStoreServerAPI's issuerId, keyId and privateKeyFile, or choose local-then-verifyReceipt")
        }
        return chosen
    }

    /// The `consumption` settings as the responder's policy.
    /// - Throws: `ConfigurationError` for a status or preference Apple does not define.
    func consumptionPolicy() throws(ConfigurationError) -> ConsumptionResponder.Policy {
        typealias Status = AppStoreServerAPI.DeliveryStatus
        let undelivered = Status(rawValue: consumption.undeliveredStatus)
        guard undelivered.isKnown, undelivered != .delivered else {
            throw ConfigurationError(
                "consumption.undeliveredStatus must be one of "
                    + Status.known.dropFirst().map(\.rawValue).joined(separator: ", "))
        }
        let rules = consumption.refundPreference
        for (name, value) in [
            ("undelivered", rules.undelivered), ("unspent", rules.unspent), ("partlySpent", rules.partlySpent),
            ("spent", rules.spent),
        ] {
            guard let value, !AppStoreServerAPI.RefundPreference(rawValue: value).isKnown else { continue }
            throw ConfigurationError(
                "consumption.refundPreference.\(name) must be DECLINE, GRANT_FULL or GRANT_PRORATED")
        }
        var policy = ConsumptionResponder.Policy()
        policy.customerConsented = consumption.customerConsented
        policy.version = consumption.version
        policy.sampleContentProvided = consumption.sampleContentProvided
        policy.assumeSpent = consumption.assumeSpent
        policy.undeliveredStatus = undelivered
        policy.refundPreference = rules
        return policy
    }
}
