import Crypto
import Foundation

/// An API key's secret: `purser_` and 32 random bytes in base64url, shown once when the key is made. The ledger
/// keeps only its SHA-256: the secret is random, so a fast hash is enough to make a stolen table useless.
struct APIKeySecret: Sendable {
    let value: String

    /// A new random secret.
    init() {
        let bytes = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        value = "purser_" + ConsoleSession.Keys.encode(bytes)
    }

    /// The hash the ledger finds a key by, in lowercase hex.
    static func hash(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
