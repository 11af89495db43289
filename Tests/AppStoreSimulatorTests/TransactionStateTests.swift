import AppStoreVerification
import Testing

@testable import AppStoreSimulator

/// Each state of a transaction is held once: the purchase's record and the notification about that state share it
/// (a chaos run at a million purchases kept two inline copies of every transaction), and a change makes a new state
/// while the notifications sent before keep theirs.
@Suite struct TransactionStateTests {
    @Test func theRecordAndItsNotificationsShareEachStateOfTheTransaction() async throws {
        let fixture = try ServerAPIFixture()
        let bought = try await fixture.buy()
        let charged = try #require(await fixture.store.notificationLog.first?.transaction?.state)
        #expect(await fixture.store.records[0].state === charged, "the purchase and ONE_TIME_CHARGE share one state")

        try await fixture.store.finish(transactionID: bought.transactionId)
        #expect(await fixture.store.records[0].state === charged, "finishing changes the record, not its transaction")

        _ = try await fixture.store.refund(transactionID: bought.transactionId, percentage: 50_000)
        let log = await fixture.store.notificationLog
        try #require(log.count == 2)
        let refunded = try #require(log[1].transaction?.state)
        #expect(await fixture.store.records[0].state === refunded, "the record and REFUND share the refunded state")
        #expect(refunded !== charged)
        #expect(charged.payload.revocationDate == nil, "ONE_TIME_CHARGE keeps the transaction as it was")
        #expect(refunded.payload.revocationPercentage == 50_000)
        #expect(await fixture.store.purchase(transactionID: bought.transactionId)?.finished == true)
    }
}
