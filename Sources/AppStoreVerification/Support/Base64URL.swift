import Foundation

/// Base64url (RFC 4648 §5, no padding) as JWS uses it.
enum Base64URL {
    /// Decodes base64url text; `nil` for anything that is not.
    static func decode(_ text: Substring) -> Data? {
        var base64 = String(text)
        guard !base64.contains(where: { $0 == "+" || $0 == "/" || $0 == "=" }) else { return nil }
        base64 = base64.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let remainder = base64.utf8.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { base64 += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: base64)
    }

    /// Encodes bytes as base64url without padding.
    static func encode(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
