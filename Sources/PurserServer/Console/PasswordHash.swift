import Foundation
import _CryptoExtras

/// An operator's password as scrypt keeps it (RFC 7914, through swift-crypto), in the PHC string format
/// `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` (unpadded base64), so Python's `hashlib.scrypt` can make the same.
public struct PasswordHash: Sendable, Hashable {
    public let logN: Int
    public let blockSize: Int
    public let parallelism: Int
    let salt: [UInt8]
    let hash: [UInt8]

    /// Hashes `password` with a fresh 16-byte salt (N = 2^15, r = 8, p = 1: about 32 MiB and tens of milliseconds).
    public static func make(_ password: String, logN: Int = 15) throws -> PasswordHash {
        let salt = (0..<16).map { _ in UInt8.random(in: .min ... .max) }
        let hash = try derive(password, salt: salt, logN: logN, blockSize: 8, parallelism: 1)
        return PasswordHash(logN: logN, blockSize: 8, parallelism: 1, salt: salt, hash: hash)
    }

    /// A hash no password matches (a random salt and a random hash) at the cost of the costliest of `hashes` (the
    /// configured operators'), or `make`'s when there are none: checked against the password given for a name no
    /// operator has, so that an unknown name takes the time of a known one and names cannot be told apart by it.
    static func decoy(costOf hashes: some Sequence<PasswordHash>) -> PasswordHash {
        let costliest = hashes.max { ($0.logN, $0.blockSize, $0.parallelism) < ($1.logN, $1.blockSize, $1.parallelism) }
        return PasswordHash(
            logN: costliest?.logN ?? 15, blockSize: costliest?.blockSize ?? 8,
            parallelism: costliest?.parallelism ?? 1, salt: (0..<16).map { _ in UInt8.random(in: .min ... .max) },
            hash: (0..<32).map { _ in UInt8.random(in: .min ... .max) })
    }

    /// Parses the PHC string; `nil` for anything else.
    public init?(encoded: String) {
        let parts = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1] == "scrypt" else { return nil }
        var settings: [Substring: Int] = [:]
        for pair in parts[2].split(separator: ",") {
            let field = pair.split(separator: "=")
            guard field.count == 2, let value = Int(field[1]) else { return nil }
            settings[field[0]] = value
        }
        guard let logN = settings["ln"], (10...20).contains(logN), let r = settings["r"], (1...32).contains(r),
            let p = settings["p"], (1...16).contains(p), let salt = Self.decode(parts[3]), salt.count >= 8,
            let hash = Self.decode(parts[4]), hash.count >= 16
        else { return nil }
        self.init(logN: logN, blockSize: r, parallelism: p, salt: salt, hash: hash)
    }

    init(logN: Int, blockSize: Int, parallelism: Int, salt: [UInt8], hash: [UInt8]) {
        self.logN = logN
        self.blockSize = blockSize
        self.parallelism = parallelism
        self.salt = salt
        self.hash = hash
    }

    /// The PHC string.
    public var encoded: String {
        "$scrypt$ln=\(logN),r=\(blockSize),p=\(parallelism)$\(Self.encode(salt))$\(Self.encode(hash))"
    }

    /// Whether `password` is the one hashed, compared in constant time.
    public func matches(_ password: String) -> Bool {
        guard
            let derived = try? Self.derive(
                password, salt: salt, logN: logN, blockSize: blockSize, parallelism: parallelism,
                length: hash.count)
        else { return false }
        return ConstantTime.equal(derived, hash)
    }

    static func derive(
        _ password: String, salt: [UInt8], logN: Int, blockSize: Int, parallelism: Int, length: Int = 32
    ) throws -> [UInt8] {
        let key = try KDF.Scrypt.deriveKey(
            from: Array(password.utf8), salt: salt, outputByteCount: length, rounds: 1 << logN,
            blockSize: blockSize, parallelism: parallelism, maxMemory: 256 * 1024 * 1024)
        return key.withUnsafeBytes { Array($0) }
    }

    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: Substring) -> [UInt8]? {
        let padded = String(text) + String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Data(base64Encoded: padded).map(Array.init)
    }
}
