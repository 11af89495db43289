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
    /// One of each kind of `buy` failure: the server out of reach, refusing an unknown product, refusing an expired
    /// sign-in, refusing otherwise; the journal; the app stopped.
    static let errors: [PurchaseError] = [
        .notSignedIn, .purchaseInProgress, .earlierPurchaseUnfinished,
        .server(PurserAPIError(kind: .network, code: "network", message: "offline")),
        .server(PurserAPIError(kind: .refused, status: 422, code: "unknown_product", message: "not in the catalog")),
        .server(PurserAPIError(kind: .refused, status: 401, code: "invalid_token", message: "expired")),
        .server(PurserAPIError(kind: .refused, status: 409, code: "idempotency_conflict", message: "used")),
        .journal("disk full"), .terminated,
    ]
    static let spendErrors: [SpendError] = [
        .refused(PurserAPIError(kind: .refused, status: 409, code: "insufficient_balance", message: "10 < 50")),
        .refused(PurserAPIError(kind: .refused, status: 403, code: "client_spend_disabled", message: "off")),
        .unsettled(id: "s-1", PurserAPIError(kind: .network, code: "network", message: "offline")),
    ]

    /// Every message of the String Catalog, in every language, as the user reads it.
    static func allMessages(_ language: PurserLanguage) -> [String] {
        reasons.map { $0.message(language) } + pending.map { $0.message(language) }
            + errors.map { $0.message(language) } + spendErrors.map { $0.message(language) }
    }

    @Test("each way a purchase or a spend fails reads differently, and only what is known is said about the charge")
    func failuresSayWhatHappened() {
        let messages = Self.errors.map { $0.message(.english) }
        #expect(Set(messages).count == Self.errors.count, "two failures read the same: \(messages)")
        for (error, message) in zip(Self.errors, messages) {
            let promisesNoCharge = message.contains("You have not been charged")
            switch error {
            case .terminated: #expect(!promisesNoCharge, "the app may have stopped after the charge: \(message)")
            case .server, .journal: #expect(promisesNoCharge, "\(error.code): \(message)")
            case .notSignedIn, .purchaseInProgress, .earlierPurchaseUnfinished: break
            }
        }
        #expect(PurchaseError.terminated.message(.english).contains("If you were charged"))
        #expect(messages[4].contains("not for sale") && messages[5].contains("sign in again"), "\(messages)")
        let spends = Self.spendErrors.map { $0.message(.english) }
        #expect(Set(spends).count == spends.count, "\(spends)")
        #expect(spends[0].contains("enough") && spends[0].contains("Nothing was taken"))
        #expect(spends[1].contains("Nothing was taken") && !spends[2].contains("Nothing was taken"))
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
