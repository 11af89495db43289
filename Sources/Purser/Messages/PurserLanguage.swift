import Foundation

/// The languages Purser's user-facing messages come in.
public enum PurserLanguage: String, Sendable, Hashable, CaseIterable {
    /// English.
    case english = "en"
    /// Simplified Chinese.
    case simplifiedChinese = "zh-Hans"

    /// The user's preferred language if Purser speaks it, else English.
    public static var current: PurserLanguage { preferred(Locale.preferredLanguages) }

    /// The first of `identifiers` (BCP 47, e.g. "zh-Hans-CN", "zh-CN", "en-US") that Purser speaks.
    public static func preferred(_ identifiers: [String]) -> PurserLanguage {
        for identifier in identifiers {
            let lowered = identifier.lowercased()
            if lowered.hasPrefix("zh-hans") || lowered == "zh" || lowered == "zh-cn" || lowered == "zh-sg" {
                return .simplifiedChinese
            }
            if lowered.hasPrefix("en") { return .english }
        }
        return .english
    }
}
