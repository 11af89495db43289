import AppStoreVerification
import Foundation
import PurserCore
import Testing

/// Apple's newer fields and values: decoded without failing, kept as sent, and judged by the rules Apple documents.
@Suite struct NewerApplePayloadTests {
    @Test func unknownValuesAndFieldsInApplesPayloadsDecode() throws {
        let transaction = """
            {"transactionId": "2000000000000001", "bundleId": "com.example.app", "productId": "gold60",
             "type": "Some Type Apple Adds", "inAppOwnershipType": "SOMETHING_NEW", "environment": "LocalTesting",
             "transactionReason": "GIFT", "revocationType": "REFUND_SOMEHOW", "revocationPercentage": 12345,
             "offerDiscountType": "NEW_DISCOUNT", "appTransactionId": "704", "billingPlanType": "COMMITMENT"}
            """
        let decoded = try JSONDecoder().decode(JWSTransaction.self, from: Data(transaction.utf8))
        #expect(decoded.type == "Some Type Apple Adds")
        #expect(decoded.transactionReason == "GIFT")
        #expect(decoded.appTransactionId == "704")
        #expect(decoded.revocationType == RevocationType(rawValue: "REFUND_SOMEHOW"))
        #expect(decoded.revocationPercentage == 12345)
        #expect(try JSONDecoder().decode(JWSTransaction.self, from: JSONEncoder().encode(decoded)) == decoded)

        let notification = """
            {"notificationType": "RESCIND_CONSENT", "notificationUUID": "u-1", "version": "2.0",
             "signedDate": 1698148900000, "appData": {"appAppleId": 41234, "bundleId": "com.example.app",
             "environment": "Sandbox", "signedAppTransactionInfo": "x"}, "somethingElse": [1, {"a": null}]}
            """
        let rescind = try JSONDecoder().decode(JWSNotification.self, from: Data(notification.utf8))
        #expect(rescind.bundleId == "com.example.app" && rescind.environment == "Sandbox")
        #expect(rescind.appAppleId == 41234)
        let claims = ClaimsPolicy(bundleID: "com.example.app", environments: [.sandbox])
        try claims.check(rescind)
        #expect(throws: VerificationError(.wrongBundle, "")) {
            try ClaimsPolicy(bundleID: "com.example.other").check(rescind)
        }
        // A shape that names no app at all is not refused for it.
        let bare = JWSNotification(notificationType: "NEW_TYPE", notificationUUID: "u-2", data: nil, signedDate: nil)
        try claims.check(bare)

        let body = """
            {"customerConsented": true, "deliveryStatus": "NEW", "sampleContentProvided": false,
             "refundPreference": "MAYBE"}
            """
        let status = try JSONDecoder().decode(AppStoreServerAPI.ConsumptionRequestV2.self, from: Data(body.utf8))
        #expect(status.deliveryStatus.rawValue == "NEW" && !status.deliveryStatus.isKnown)
        #expect(status.refundPreference?.rawValue == "MAYBE")
        let encoded = try JSONEncoder().encode(status)
        #expect(try JSONDecoder().decode(AppStoreServerAPI.ConsumptionRequestV2.self, from: encoded) == status)
    }

    @Test func consumptionVersion2FollowsApplesRules() {
        typealias Request = AppStoreServerAPI.ConsumptionRequestV2
        let fine = Request(deliveryStatus: .delivered, sampleContentProvided: false, consumptionPercentage: 100_000)
        #expect(fine.invalidField() == nil)
        #expect(Request(deliveryStatus: .undeliveredOther, sampleContentProvided: false).invalidField() == nil)
        #expect(
            Request(customerConsented: false, deliveryStatus: .delivered, sampleContentProvided: false).invalidField()
                == .invalidCustomerConsented)
        #expect(
            Request(deliveryStatus: .delivered, sampleContentProvided: false, consumptionPercentage: 100_001)
                .invalidField() == .consumptionPercentageOutOfRange)
        #expect(
            Request(deliveryStatus: .undeliveredServerOutage, sampleContentProvided: false, consumptionPercentage: 1)
                .invalidField() == .undeliveredConsumptionPercentageNonZero)
        #expect(
            Request(deliveryStatus: .delivered, sampleContentProvided: false, refundPreference: .grantProrated)
                .invalidField() == .consumptionPercentageOutOfRange, "a prorated refund needs a share above 0")
        #expect(fine.invalidField(autoRenewable: true) == .consumptionPercentageAutoRenewableSubscription)
        #expect(
            Request(deliveryStatus: .delivered, sampleContentProvided: false, refundPreference: .grantProrated)
                .invalidField(autoRenewable: true) == nil)
        #expect(
            Request(
                deliveryStatus: .delivered, sampleContentProvided: false,
                refundPreference: .init(rawValue: "MAYBE")
            ).invalidField() == .invalidRefundPreference)
    }

    @Test func theServerAPIDefaultsToApplesCurrentHosts() {
        typealias Hosts = AppStoreServerAPIClient.Configuration
        #expect(Hosts.productionURL.absoluteString == "https://api.storekit.apple.com")
        #expect(Hosts.sandboxURL.absoluteString == "https://api.storekit-sandbox.apple.com")
        #expect(Hosts.legacyProductionURL.absoluteString == "https://api.storekit.itunes.apple.com")
    }

    @Test func applesRevocationFieldsReachTheLedgersTransaction() throws {
        let refunded = """
            {"transactionId": "2000000000000002", "bundleId": "com.example.app", "productId": "gold60",
             "revocationDate": 1698148900000, "revocationReason": 1, "revocationType": "REFUND_PRORATED",
             "revocationPercentage": 67932}
            """
        let prorated = try JSONDecoder().decode(JWSTransaction.self, from: Data(refunded.utf8)).appleTransaction()
        #expect(prorated.revocationType == .refundProrated && prorated.revocationPercentage == 67_932)
        #expect(prorated.revokedShare == 67_932)
        var family = prorated
        family.revocationType = .familyRevoke
        #expect(family.revokedShare == RefundRules.whole, "a Family Sharing revocation takes it all")
        family.revocationType = nil
        family.revocationPercentage = nil
        #expect(family.revokedShare == RefundRules.whole, "a refund from before partial refunds is whole")
        family.revocationDate = nil
        #expect(family.revokedShare == nil)
    }
}
