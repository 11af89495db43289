import Foundation
import Purser
import Testing

@Suite("User-facing messages and retry policy")
struct MessagesAndRetryTests {
    static let reasons: [PurchaseFailureReason] = [
        .cancelled, .notAllowed, .productUnavailable, .network, .receiptUnavailable, .rejected("wrong_bundle"),
        .refunded, .unknown,
    ]

    @Test("every failure reason has distinct English and Simplified Chinese messages")
    func messages() {
        for reason in Self.reasons {
            let english = reason.message(.english)
            let chinese = reason.message(.simplifiedChinese)
            #expect(!english.isEmpty && !chinese.isEmpty && english != chinese)
            #expect(chinese.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) }, "\(reason)")
        }
        #expect(Set(Self.reasons.map { $0.message(.english) }).count == Self.reasons.count)
        #expect(PurchaseError.earlierPurchaseUnfinished.message(.simplifiedChinese).contains("稍后"))
        #expect(PendingPurchaseReason.askToBuy.message(.english).contains("approv"))
    }

    @Test("language choice follows the user's preferences")
    func language() {
        #expect(PurserLanguage.preferred(["zh-Hans-CN", "en-US"]) == .simplifiedChinese)
        #expect(PurserLanguage.preferred(["zh-CN"]) == .simplifiedChinese)
        #expect(PurserLanguage.preferred(["fr-FR", "en-GB"]) == .english)
        #expect(PurserLanguage.preferred(["fr-FR"]) == .english)
    }

    @Test("backoff doubles, is capped, and jitter scales it")
    func backoff() {
        let policy = RetryPolicy(maxAttempts: 5, baseDelay: .milliseconds(100), maxDelay: .seconds(1))
        #expect(policy.delay(afterAttempt: 0, jitter: 1) == .milliseconds(100))
        #expect(policy.delay(afterAttempt: 2, jitter: 1) == .milliseconds(400))
        #expect(policy.delay(afterAttempt: 10, jitter: 1) == .seconds(1))
        #expect(policy.delay(afterAttempt: 2, jitter: 0.5) == .milliseconds(200))
    }
}
