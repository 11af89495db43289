import Foundation

/// Where a user id occurs in a stored text as itself: not inside a longer id. An id is bounded by the text's ends or by
/// a character that cannot continue an id (anything but a letter, a digit, `-` and `_`), so `user-1` occurs in
/// `to user-1 gold+60` and in `{"userId":"user-1"}`, but not in `user-10` or `spend-user-1`.
public struct ErasureText: Sendable {
    /// The forms of the id to look for: as written, and as a JSON string escapes it (`/` as `\/`, `"` as `\"`).
    let forms: [String]

    /// An id and, with `anyCase`, its upper- and lower-case spellings too (a UUID).
    public init(_ id: String, anyCase: Bool = false) {
        if anyCase {
            forms = Array(Set([id, id.lowercased(), id.uppercased()])).sorted()
            return
        }
        var escaped = ""
        for character in id {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "/": escaped += "\\/"
            default: escaped.append(character)
            }
        }
        forms = escaped == id ? [id] : [id, escaped]
    }

    /// Whether `text` holds the id as itself.
    public func occurs(in text: String) -> Bool {
        forms.contains { !ranges(of: $0, in: text).isEmpty }
    }

    /// `text` with every occurrence of the id as itself replaced by `replacement` (escaped forms by its escaped form,
    /// which for a pseudonym is itself).
    public func replacing(in text: String, with replacement: String) -> String {
        var result = text
        for form in forms {
            for range in ranges(of: form, in: result).reversed() {
                result.replaceSubrange(range, with: replacement)
            }
        }
        return result
    }

    /// The ranges of `form` in `text` that are bounded on both sides.
    private func ranges(of form: String, in text: String) -> [Range<String.Index>] {
        guard !form.isEmpty else { return [] }
        var found: [Range<String.Index>] = []
        var start = text.startIndex
        while let range = text.range(of: form, range: start..<text.endIndex) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            if !Self.continuesAnID(before), !Self.continuesAnID(after) { found.append(range) }
            start = text.index(after: range.lowerBound)
        }
        return found
    }

    private static func continuesAnID(_ character: Character?) -> Bool {
        guard let character else { return false }
        return character.isLetter || character.isNumber || character == "-" || character == "_"
    }
}
