import Foundation
import Purser
import Testing

@Suite("User-facing messages and retry policy")
struct MessagesAndRetryTests {
    static let reasons: [PurchaseFailureReason] = [
        .cancelled, .notAllowed, .productUnavailable, .network, .receiptUnavailable, .rejected("wrong_bundle"),
        .refunded, .unknown,
    ]

    static let pending: [PendingPurchaseReason] = [
        .askToBuy, .serverUnreachable, .server("unbound"), .notSignedIn,
    ]
    static let errors: [PurchaseError] = [.notSignedIn, .purchaseInProgress, .earlierPurchaseUnfinished, .terminated]

    /// Every message of the String Catalog, in every language, as the user reads it.
    static func allMessages(_ language: PurserLanguage) -> [String] {
        reasons.map { $0.message(language) } + pending.map { $0.message(language) }
            + errors.map { $0.message(language) }
    }

    @Test("every message is in the String Catalog in each language, written in its script")
    func messages() {
        let english = Self.allMessages(.english)
        #expect(Set(Self.reasons.map { $0.message(.english) }).count == Self.reasons.count)
        #expect(english.allSatisfy { !$0.contains(".") || $0.contains(" ") }, "a key, not a message: \(english)")
        func written(_ language: PurserLanguage, in scripts: [ClosedRange<UInt32>]) {
            let messages = Self.allMessages(language)
            for (message, source) in zip(messages, english) {
                #expect(message != source, "\(language) falls back to English: \(message)")
                #expect(message.unicodeScalars.contains { scalar in scripts.contains { $0.contains(scalar.value) } })
            }
        }
        let han: ClosedRange<UInt32> = 0x4E00...0x9FFF
        written(.simplifiedChinese, in: [han])
        written(.traditionalChinese, in: [han])
        written(.japanese, in: [0x3040...0x30FF])  // hiragana and katakana
        written(.korean, in: [0xAC00...0xD7AF])  // Hangul syllables
        let simplified = Self.allMessages(.simplifiedChinese)
        for (traditional, simple) in zip(Self.allMessages(.traditionalChinese), simplified) {
            #expect(traditional != simple, "zh-Hant is not zh-Hans: \(traditional)")
        }
        #expect(PurchaseError.earlierPurchaseUnfinished.message(.simplifiedChinese).contains("稍后"))
        #expect(PurchaseError.earlierPurchaseUnfinished.message(.traditionalChinese).contains("稍後"))
        #expect(PendingPurchaseReason.askToBuy.message(.english).contains("approv"))
    }

    @Test("the stable codes stay as they were")
    func codes() {
        #expect(
            Self.reasons.map(\.code) == [
                "cancelled", "not_allowed", "product_unavailable", "network", "receipt_unavailable",
                "rejected:wrong_bundle", "refunded", "unknown",
            ])
        #expect(Self.pending.map(\.code) == ["ask_to_buy", "server_unreachable", "server:unbound", "not_signed_in"])
    }

    @Test("language choice follows the user's order, skipping what Purser does not speak")
    func language() {
        #expect(PurserLanguage.preferred(["zh-Hans-CN", "en-US"]) == .simplifiedChinese)
        #expect(PurserLanguage.preferred(["zh-CN"]) == .simplifiedChinese)
        #expect(PurserLanguage.preferred(["zh"]) == .simplifiedChinese)
        #expect(PurserLanguage.preferred(["zh-Hant-TW"]) == .traditionalChinese)
        #expect(PurserLanguage.preferred(["zh-TW"]) == .traditionalChinese)
        #expect(PurserLanguage.preferred(["zh-HK", "en"]) == .traditionalChinese)
        #expect(PurserLanguage.preferred(["zh-Hant-HK"]) == .traditionalChinese)
        #expect(PurserLanguage.preferred(["ja", "zh-Hans"]) == .japanese)
        #expect(PurserLanguage.preferred(["ja_JP"]) == .japanese)
        #expect(PurserLanguage.preferred(["fr-FR", "ko-KR", "en"]) == .korean)
        #expect(PurserLanguage.preferred(["fr-FR", "en-GB"]) == .english)
        #expect(PurserLanguage.preferred(["fr-FR"]) == .english)
        #expect(PurserLanguage.preferred([]) == .english)
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
