import Crypto
import Foundation

/// A Standard Webhooks signing secret: `whsec_` followed by the base64 of 24 to 64 random bytes. Purser signs every
/// event with each active secret of an endpoint; a game backend verifies with the secrets it holds.
public struct WebhookSecret: Sendable, Hashable, CustomStringConvertible {
    /// The prefix of a serialised secret.
    public static let prefix = "whsec_"
    /// The shortest key the specification allows (192 bits), and the longest (512 bits).
    public static let keyLengths = 24...64

    /// The HMAC-SHA256 key: the base64-decoded bytes after `whsec_`.
    public let key: SymmetricKey

    /// Parses `whsec_<base64>`.
    /// - Throws: `WebhookVerificationError` (`invalid_secret`) when the prefix is missing, the rest is not base64, or
    ///   the key is shorter than 24 or longer than 64 bytes. The message never contains the secret.
    public init(_ serialized: String) throws(WebhookVerificationError) {
        guard serialized.hasPrefix(Self.prefix) else {
            throw WebhookVerificationError(.invalidSecret, "a webhook secret starts with \(Self.prefix)")
        }
        let encoded = String(serialized.dropFirst(Self.prefix.count))
        guard let bytes = Data(base64Encoded: encoded) ?? Data(base64Encoded: Self.padded(encoded)) else {
            throw WebhookVerificationError(.invalidSecret, "a webhook secret is base64 after \(Self.prefix)")
        }
        guard Self.keyLengths.contains(bytes.count) else {
            throw WebhookVerificationError(
                .invalidSecret,
                "a webhook secret's key is \(Self.keyLengths.lowerBound) to \(Self.keyLengths.upperBound) bytes, "
                    + "not \(bytes.count)")
        }
        key = SymmetricKey(data: bytes)
    }

    /// A secret from raw key bytes (24 to 64 of them).
    public init(key bytes: some ContiguousBytes) throws(WebhookVerificationError) {
        let count = bytes.withUnsafeBytes { $0.count }
        guard Self.keyLengths.contains(count) else {
            throw WebhookVerificationError(.invalidSecret, "a webhook secret's key is 24 to 64 bytes, not \(count)")
        }
        key = SymmetricKey(data: bytes)
    }

    /// A new random secret of 32 bytes.
    public static func generate() -> WebhookSecret {
        // 32 bytes is within `keyLengths`, so this cannot throw.
        try! WebhookSecret(key: SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) })
    }

    /// `whsec_<base64>`: the form to hand to a game backend. A secret: never log it.
    public var serialized: String {
        Self.prefix + key.withUnsafeBytes { Data($0).base64EncodedString() }
    }

    /// Redacted: the key never appears in logs or error messages.
    public var description: String { "whsec_…(\(key.bitCount / 8) bytes)" }

    /// Equal when the keys are equal (compared in constant time).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.key.withUnsafeBytes { l in rhs.key.withUnsafeBytes { r in l.elementsEqual(r) } }
    }

    /// Hashes the key's bytes.
    public func hash(into hasher: inout Hasher) {
        key.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    private static func padded(_ base64: String) -> String {
        base64 + String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
    }
}
