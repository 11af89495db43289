import Crypto
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
    /// SHA-256 of the ASCII bytes of `header.payload`, which the signature covers.
    let signingDigest: SHA256Digest

    init(_ text: String) throws(VerificationError) {
        guard text.utf8.count <= Self.maximumLength else {
            throw VerificationError(.malformed, "the JWS is longer than \(Self.maximumLength) bytes")
        }
        // One pass over the string's own UTF-8 storage when it has one (a copy otherwise).
        var text = text
        let parts = text.withUTF8 { bytes -> Result<Self, VerificationError> in
            Result { () throws(VerificationError) -> Self in try Self(bytes: bytes) }
        }
        self = try parts.get()
    }

    private init(bytes all: UnsafeBufferPointer<UInt8>) throws(VerificationError) {
        var start = all.startIndex
        var end = all.endIndex
        while start < end, Self.isWhitespace(all[start]) { start += 1 }
        while end > start, Self.isWhitespace(all[end - 1]) { end -= 1 }
        var dots: [Int] = []
        for index in start..<end where all[index] == UInt8(ascii: ".") {
            dots.append(index)
            guard dots.count <= 2 else { break }
        }
        guard dots.count == 2 else {
            throw VerificationError(
                .malformed, "a compact JWS has three dot-separated segments, this has \(dots.count + 1)")
        }
        let header = UnsafeBufferPointer(rebasing: all[start..<dots[0]])
        let payload = UnsafeBufferPointer(rebasing: all[(dots[0] + 1)..<dots[1]])
        let signature = UnsafeBufferPointer(rebasing: all[(dots[1] + 1)..<end])
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
        self.signingDigest = SHA256.hash(
            data: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: all[start..<dots[1]])))
    }

    /// Only the payload segment, decoded: nothing else is split, copied or hashed, and nothing is trusted (for peeks
    /// that can only skip work already done). Nil when `text` has no payload segment between two dots.
    static func unverifiedPayload(of text: String) -> Data? {
        let utf8 = text.utf8
        guard utf8.count <= maximumLength, let first = utf8.firstIndex(of: UInt8(ascii: ".")) else { return nil }
        let rest = utf8[utf8.index(after: first)...]
        guard let second = rest.firstIndex(of: UInt8(ascii: ".")), second > rest.startIndex else { return nil }
        return Base64URL.decode(utf8[rest.startIndex..<second])
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

/// A JWS header segment's exact bytes: the chain cache's key. Equal only when every byte is; hashed on its length
/// and a stretch inside the leaf certificate (a header is a few kilobytes of base64, and hashing all of it cost more
/// than a tenth of a warm verification), which is where two chains differ.
struct HeaderSegment: Hashable, Sendable {
    let bytes: [UInt8]

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = Array(bytes)
    }

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = Array(bytes)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { all in
            let sampled = all[min(32, all.count)..<min(32 + Self.hashedBytes, all.count)]
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: sampled))
        }
    }

    /// How many bytes the hash covers.
    static let hashedBytes = 256

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.bytes == rhs.bytes }
}
