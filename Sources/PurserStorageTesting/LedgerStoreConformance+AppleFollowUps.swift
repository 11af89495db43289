import Foundation
import PurserCore
import PurserStorage
import Testing

// Migration 6: Apple's `appTransactionId` kept with every transaction and found again, and what Purser owes Apple
// after a credit (Finish Transaction, Set App Account Token) listed until it is recorded done.
extension LedgerStoreConformance {
    /// Every transaction keeps Apple's `appTransactionId` (or none), and `transactions(appTransactionID:)` lists one
    /// account's transactions, whatever their state, and no one else's.
    public func keepsAndFindsTheAppTransactionID() async throws {
        let account = "704\(UInt32.random(in: 0...UInt32.max))"
        var first = transaction("atx-\(account)-1", token: nil)
        first.appTransactionID = account
        var second = transaction("atx-\(account)-2", token: nil)
        second.appTransactionID = account
        var other = transaction("atx-\(account)-3", token: nil)
        other.appTransactionID = account + "9"
        let none = transaction("atx-\(account)-4", token: nil)
        _ = try await store.settle(
            Submission(
                transaction: first, assessment: .creditable(gold),
                source: .support(
                    operator: "ops", user: "carol", reason: "lost")), now: now)
        _ = try await store.settle(
            Submission(transaction: second, assessment: .creditable(gold), source: .reconciliation), now: now)
        _ = try await store.settle(
            Submission(transaction: other, assessment: .creditable(gold), source: .reconciliation), now: now)
        _ = try await store.settle(
            Submission(transaction: none, assessment: .creditable(gold), source: .reconciliation), now: now)

        let found = try await store.transactions(appTransactionID: account)
        #expect(found.map(\.transaction.transactionID) == [first.transactionID, second.transactionID])
        #expect(found.map(\.state) == [.credited, .unbound])
        #expect(found.allSatisfy { $0.transaction.appTransactionID == account })
        #expect(try await store.transaction(none.transactionID)?.transaction.appTransactionID == nil)
        #expect(try await store.transactions(appTransactionID: account + "0").isEmpty)
    }

    /// A credit no app will finish (here support's) is owed to Apple at once, with the account's token; an app's
    /// own credit only once it is older than the cutoff. Recording the calls done takes them off the list, once.
    public func listsWhatIsOwedToAppleUntilRecorded() async throws {
        let tag = UUID().uuidString.prefix(8)
        let supportID = "fu-\(tag)-support"
        let support = try await store.settle(
            Submission(
                transaction: transaction(supportID, token: nil), assessment: .creditable(gold),
                source: .support(operator: "ops", user: "dave", reason: "lost")), now: now)
        let owedToken = OrderID.accountToken(for: "dave")
        #expect(
            support.appleFollowUp
                == AppleFollowUp(
                    transactionID: supportID, originalTransactionID: supportID, environment: .sandbox, finish: true,
                    appAccountToken: owedToken))
        let order = try await newOrder("erin")
        let clientID = "fu-\(tag)-client"
        let client = try await store.settle(
            Submission(
                transaction: transaction(clientID, token: order.id), assessment: .creditable(gold),
                source: .client("erin")), now: now)
        #expect(client.appleFollowUp == nil)

        func owed(before cutoff: Date) async throws -> [AppleFollowUp] {
            try await store.appleFollowUps(clientCreditedBefore: cutoff, limit: 10_000)
                .filter { $0.transactionID.hasPrefix("fu-\(tag)") }
        }
        #expect(try await owed(before: now.addingTimeInterval(-1)).map(\.transactionID) == [supportID])
        let later = try await owed(before: now)
        #expect(Set(later.map(\.transactionID)) == [supportID, clientID])
        #expect(later.first { $0.transactionID == clientID }?.appAccountToken == nil)

        try await store.recordAppleFollowUp(
            transactionID: supportID, finished: false, tokenWritten: owedToken, now: now)
        let tokenDone = try await owed(before: now.addingTimeInterval(-1))
        #expect(tokenDone.map(\.finish) == [true])
        #expect(tokenDone.first?.appAccountToken == nil)
        let finishedAt = now.addingTimeInterval(5)
        try await store.recordAppleFollowUp(
            transactionID: supportID, finished: true, tokenWritten: nil, now: finishedAt)
        try await store.recordAppleFollowUp(
            transactionID: supportID, finished: true, tokenWritten: nil, now: finishedAt.addingTimeInterval(5))
        #expect(try await owed(before: now.addingTimeInterval(-1)).isEmpty)
        #expect(try await store.transaction(supportID)?.finishedAtApple == finishedAt)
        #expect(try await store.transaction(clientID)?.finishedAtApple == nil)
    }
}
