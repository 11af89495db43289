import AppStoreSimulator
import AppStoreVerification
import Foundation
import Synchronization
import Testing

/// The simulator keeps no signed notification and rebuilds it for delivery, Get Notification History and
/// `notificationHistory()`: what is read back is byte for byte what was delivered (the same claims, the
/// same transaction as it was then, the same signatures), as Apple's history answers.
@Suite struct NotificationLogTests {
    /// Answers 200 to every notification and keeps each body's `signedPayload`.
    final class Receiver: AppStoreHTTPTransport {
        let received = Mutex<[String]>([])
        func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
            let body = try JSONDecoder().decode([String: String].self, from: request.body ?? Data())
            received.withLock { $0.append(body["signedPayload"] ?? "") }
            return AppStoreHTTPResponse(status: 200, body: Data())
        }
    }

    @Test func aDeliveredNotificationReadsBackByteForByte() async throws {
        let fixture = try ServerAPIFixture()
        let receiver = Receiver()
        await fixture.store.deliverNotifications(to: URL(string: "http://purser.test/n")!, transport: receiver)
        let bought = try await fixture.buy()
        let refunded = try await fixture.store.refund(transactionID: bought.transactionId)
        #expect(await fixture.store.deliverDueNotifications(force: true) == 2)
        let delivered = receiver.received.withLock { $0 }
        let logged = try await fixture.store.notificationHistory()
        try #require(delivered.count == 2 && logged.count == 2)
        var originals: [String: VerifiedNotification] = [:]  // sent side by side: matched by UUID
        for sent in delivered {
            let original = try await fixture.verifier.verifyNotification(sent)
            originals[original.notification.notificationUUID] = original
        }
        for entry in logged {
            #expect(entry.delivered)
            #expect(delivered.contains(entry.signedPayload), "the delivered bytes, rebuilt")
            let again = try await fixture.verifier.verifyNotification(entry.signedPayload)
            let original = try #require(originals[entry.notificationUUID])
            #expect(again.notification.notificationUUID == entry.notificationUUID)
            #expect(again.notification.notificationType == original.notification.notificationType)
            #expect(again.notification.signedDate == original.notification.signedDate)
            #expect(again.transaction == original.transaction, "the transaction as it was when notified")
        }
        let (charge, refund) = (
            try await fixture.verifier.verifyNotification(logged[0].signedPayload),
            try await fixture.verifier.verifyNotification(logged[1].signedPayload)
        )
        #expect(charge.transaction?.revocationDate == nil && refund.transaction?.revocationDate != nil)
        // Rebuilt, the bytes are the ones signed when the refund was made (the signatures verify only over those).
        #expect(logged[1].signedPayload == refunded.notification)
    }
}
