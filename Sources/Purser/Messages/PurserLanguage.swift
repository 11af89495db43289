import Foundation

/// The languages Purser's user-facing messages come in (the String Catalog `Localizable.xcstrings`).
public enum PurserLanguage: String, Sendable, Hashable, CaseIterable {
    /// English.
    case english = "en"
    /// Simplified Chinese.
    case simplifiedChinese = "zh-Hans"
    case traditionalChinese = "zh-Hant"
    case japanese = "ja"
    case korean = "ko"

    /// The first of the user's preferred languages that Purser speaks, else English.
    public static var current: PurserLanguage { preferred(Locale.preferredLanguages) }

    /// The first of `identifiers` (BCP 47, in the user's order: "ja-JP", "zh-Hant-TW", "zh-HK", "en-US") that Purser
    /// speaks; languages it does not speak are skipped, and English is the last resort. Chinese without a script
    /// is Traditional in Taiwan, Hong Kong and Macao and Simplified elsewhere, as Apple's own fallback does.
    public static func preferred(_ identifiers: [String]) -> PurserLanguage {
        for identifier in identifiers {
            if let language = language(of: identifier) { return language }
        }
        return .english
    }

    private static func language(of identifier: String) -> PurserLanguage? {
        let parts = identifier.replacingOccurrences(of: "_", with: "-").lowercased().split(separator: "-")
        guard let code = parts.first else { return nil }
        switch code {
        case "en": return .english
        case "ja": return .japanese
        case "ko": return .korean
        case "zh":
            if parts.contains("hant") { return .traditionalChinese }
            if parts.contains("hans") { return .simplifiedChinese }
            return parts.contains { ["tw", "hk", "mo"].contains($0) } ? .traditionalChinese : .simplifiedChinese
        default: return nil
        }
    }
}
