import AppStoreSimulator
import AppStoreVerification
import Foundation
import HummingbirdTesting
import PurserCore
import PurserServer
import PurserStorage
import Testing

/// A purchase Xcode's StoreKit testing signed, credited through `xcode.certificateFile`: Apple's servers never saw
/// it, so nothing is owed to them, and the follow-up job neither calls Apple about it nor keeps it owed.
@Suite struct XcodeTestingTests {
    @Test func anXcodePurchaseIsCreditedAndNothingIsOwedToApple() async throws {
        let xcode = try XcodeTestingSigner()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("xcode-\(UUID()).cer")
        try Data(xcode.certificateDER).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let clock = AppleFollowUpTests.Clock()
        let configure: (inout ServerConfiguration) -> Void = {
            $0.xcode.certificateFile = file.path
            $0.finishing.afterSeconds = 3600
        }
        let now: @Sendable () -> Date = { clock.now }
        try await TestServer.run(environments: [.production, .sandbox, .xcode], configure: configure, now: now) {
            server, client in
            let order = try await server.order("gold60", for: "erin", client: client)
            var transaction = JWSTransaction(transactionId: "0", bundleId: TestServer.bundleID, productId: "gold60")
            transaction.type = "Consumable"
            transaction.environment = AppStoreEnvironment.xcode.rawValue
            transaction.purchaseDate = clock.now.appStoreMilliseconds
            transaction.signedDate = clock.now.appStoreMilliseconds
            // No appAccountToken: the journal's order binds it, so Purser would owe Apple Set App Account Token.
            let answer = try await client.submit(
                try xcode.sign(transaction), user: "erin", orderId: order.orderId.description)
            #expect(try answer.decode(DecisionResponse.self).decision == "delivered")
            #expect(try await client.wallet("erin") == ["gold": 60])

            let followUps = try #require(server.followUps)
            #expect(try await followUps.run() == AppleFollowUps.Summary())
            clock.advance(3601)
            #expect(try await followUps.run() == AppleFollowUps.Summary())
            #expect(try await server.store.appleFollowUps(clientCreditedBefore: clock.now, limit: 10).isEmpty)
        }
    }
}
