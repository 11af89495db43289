import Foundation

/// A compact JWS split into its parts, with nothing trusted yet. Works on the UTF-8 bytes throughout.
struct CompactJWS {
    /// Signed payloads larger than this are refused before any parsing (a notification with its nested
    /// transaction is a few kilobytes).
    static let maximumLength = 256 * 1024

    struct Header: Decodable {
        var alg: String?
        var x5c: [String]?
    }

    /// The first segment exactly as received; it encodes `alg` and the certificate chain.
    let headerSegment: HeaderSegment
    let payload: Data
    let signature: Data
    /// The ASCII bytes of `header.payload`, which the signature covers.
    let signingInput: ArraySlice<UInt8>

    init(_ text: String) throws(VerificationError) {
        guard text.utf8.count <= Self.maximumLength else {
            throw VerificationError(.malformed, "the JWS is longer than \(Self.maximumLength) bytes")
        }
        var bytes = Array(text.utf8)[...]
        while let first = bytes.first, Self.isWhitespace(first) { bytes.removeFirst() }
        while let last = bytes.last, Self.isWhitespace(last) { bytes.removeLast() }
        let dots = bytes.indices.filter { bytes[$0] == UInt8(ascii: ".") }
        guard dots.count == 2 else {
            throw VerificationError(
                .malformed, "a compact JWS has three dot-separated segments, this has \(dots.count + 1)")
        }
        let header = bytes[bytes.startIndex..<dots[0]]
        let payload = bytes[(dots[0] + 1)..<dots[1]]
        let signature = bytes[(dots[1] + 1)...]
        guard !header.isEmpty, !payload.isEmpty, !signature.isEmpty else {
            throw VerificationError(.malformed, "a JWS segment is empty")
        }
        guard let decodedPayload = Base64URL.decode(payload) else {
            throw VerificationError(.malformed, "the payload segment is not base64url")
        }
        guard let decodedSignature = Base64URL.decode(signature) else {
            throw VerificationError(.malformed, "the signature segment is not base64url")
        }
        self.headerSegment = HeaderSegment(bytes: header)
        self.payload = decodedPayload
        self.signature = decodedSignature
        self.signingInput = bytes[bytes.startIndex..<dots[1]]
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Decodes the header (only on a chain-cache miss).
    func decodeHeader() throws(VerificationError) -> Header {
        guard let json = Base64URL.decode(headerSegment.bytes) else {
            throw VerificationError(.malformed, "the header segment is not base64url")
        }
        do {
            return try JSONDecoder().decode(Header.self, from: json)
        } catch {
            throw VerificationError(.malformed, "the header is not a JSON object with alg and x5c")
        }
    }
}

/// A JWS header segment's exact bytes, hashed in bulk: the chain cache's key.
struct HeaderSegment: Hashable, Sendable {
    let bytes: [UInt8]

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = Array(bytes)
    }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
