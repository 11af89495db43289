import Foundation

/// A compact JWS split into its parts, with nothing trusted yet.
struct CompactJWS {
    /// Signed payloads larger than this are refused before any parsing (a notification with its nested
    /// transaction is a few kilobytes).
    static let maximumLength = 256 * 1024

    struct Header: Decodable {
        var alg: String?
        var x5c: [String]?
    }

    /// The first segment exactly as received; it encodes `alg` and the certificate chain.
    let headerSegment: Substring
    let payload: Data
    let signature: Data
    /// The ASCII bytes of `header.payload`, which the signature covers.
    let signingInput: Data

    init(_ text: String) throws(VerificationError) {
        guard text.utf8.count <= Self.maximumLength else {
            throw VerificationError(.malformed, "the JWS is longer than \(Self.maximumLength) bytes")
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let segments = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else {
            throw VerificationError(.malformed, "a compact JWS has three dot-separated segments, this has \(segments.count)")
        }
        guard !segments[0].isEmpty, !segments[1].isEmpty, !segments[2].isEmpty else {
            throw VerificationError(.malformed, "a JWS segment is empty")
        }
        guard let payload = Base64URL.decode(segments[1]) else {
            throw VerificationError(.malformed, "the payload segment is not base64url")
        }
        guard let signature = Base64URL.decode(segments[2]) else {
            throw VerificationError(.malformed, "the signature segment is not base64url")
        }
        self.headerSegment = segments[0]
        self.payload = payload
        self.signature = signature
        self.signingInput = Data(trimmed.utf8.prefix(segments[0].utf8.count + 1 + segments[1].utf8.count))
    }

    /// Decodes the header (only on a chain-cache miss).
    func decodeHeader() throws(VerificationError) -> Header {
        guard let json = Base64URL.decode(headerSegment) else {
            throw VerificationError(.malformed, "the header segment is not base64url")
        }
        do {
            return try JSONDecoder().decode(Header.self, from: json)
        } catch {
            throw VerificationError(.malformed, "the header is not a JSON object with alg and x5c")
        }
    }
}
