import Foundation
import HTTPTypes
import Hummingbird

/// A strong entity tag (RFC 9110 §8.8.3) for a representation that changes only with its content, and the
/// `If-None-Match` test of a conditional GET.
struct EntityTag: Hashable, Sendable {
    /// The tag without its quotes.
    let opaque: String

    /// The `ETag` field value: the tag in double quotes.
    var fieldValue: String { "\"\(opaque)\"" }

    /// Whether `If-None-Match` names this tag, so the client's copy is current and a 304 is the answer. The field may
    /// repeat and list several tags; `*` matches any, and weak tags (`W/"…"`) compare by their opaque part, as
    /// RFC 9110 §13.1.2 asks for `If-None-Match`.
    func isMatched(by request: Request) -> Bool {
        let tags = request.headers[values: .ifNoneMatch].flatMap { $0.split(separator: ",") }
        return tags.contains { listed in
            let tag = listed.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            return (tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag) == fieldValue
        }
    }
}
