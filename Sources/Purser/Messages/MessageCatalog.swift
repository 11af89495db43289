import Foundation

/// The user-facing messages, read from the String Catalog `Localizable.xcstrings` (the file Xcode's catalog editor
/// opens, shipped as is): each message by key in each of `PurserLanguage`'s languages.
///
/// The catalog is read here rather than compiled to `.strings` so the same file serves every platform, Linux
/// included, and a message's language is the one the caller asks for, not only the process's.
struct MessageCatalog: Sendable {
    /// Message text by key, then by language identifier (`en`, `zh-Hans`, …).
    let messages: [String: [String: String]]
    let sourceLanguage: String

    /// The catalog the package ships.
    static let shipped: MessageCatalog = {
        guard let url = Bundle.module.url(forResource: "Localizable", withExtension: "xcstrings"),
            let data = try? Data(contentsOf: url), let catalog = try? MessageCatalog(data: data)
        else { return MessageCatalog(messages: [:], sourceLanguage: "en") }
        return catalog
    }()

    init(messages: [String: [String: String]], sourceLanguage: String) {
        self.messages = messages
        self.sourceLanguage = sourceLanguage
    }

    /// Parses a String Catalog's JSON (`sourceLanguage`, and `strings.KEY.localizations.LANGUAGE.stringUnit.value`).
    init(data: Data) throws {
        let file = try JSONDecoder().decode(File.self, from: data)
        self.sourceLanguage = file.sourceLanguage
        self.messages = file.strings.mapValues { entry in
            (entry.localizations ?? [:]).compactMapValues { $0.stringUnit?.value }
        }
    }

    /// `key` in `language`; in the catalog's source language where that translation is missing; the key itself
    /// only if the catalog lacks it altogether (a test holds every key in every language).
    func text(_ key: String, _ language: PurserLanguage) -> String {
        let translations = messages[key] ?? [:]
        return translations[language.rawValue] ?? translations[sourceLanguage] ?? key
    }

    private struct File: Decodable {
        struct Entry: Decodable {
            struct Localization: Decodable {
                struct StringUnit: Decodable {
                    var value: String
                }
                var stringUnit: StringUnit?
            }
            var localizations: [String: Localization]?
        }
        var sourceLanguage: String
        var strings: [String: Entry]
    }
}
