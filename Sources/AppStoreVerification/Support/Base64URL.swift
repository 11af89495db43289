import Foundation

/// Base64url (RFC 4648 §5, no padding) as JWS and JWT use it, decoded straight from bytes: the hot path of every
/// verification, so no intermediate strings.
public enum Base64URL {
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8.enumerated() {
            table[Int(character)] = UInt8(index)
        }
        return table
    }()

    /// Decodes base64url bytes; `nil` for anything else (including padding and the standard alphabet's `+/`).
    public static func decode(_ bytes: some Collection<UInt8>) -> Data? {
        let count = bytes.count
        guard count % 4 != 1 else { return nil }
        let capacity = count * 3 / 4
        var valid = true
        let output = table.withUnsafeBufferPointer { table in
            [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                var accumulator: UInt32 = 0
                var bits: UInt32 = 0
                var written = 0
                for byte in bytes {
                    let value = table[Int(byte)]
                    if value == 0xFF {
                        valid = false
                        break
                    }
                    accumulator = (accumulator << 6) | UInt32(value)
                    bits += 6
                    if bits >= 8 {
                        bits -= 8
                        buffer[written] = UInt8(truncatingIfNeeded: accumulator >> bits)
                        written += 1
                    }
                }
                // Leftover bits must be zero, so each byte string has exactly one encoding.
                if valid, accumulator & ((1 << bits) - 1) != 0 { valid = false }
                initialized = written
            }
        }
        return valid ? Data(output) : nil
    }

    /// Encodes bytes as base64url without padding.
    public static func encode(_ data: some DataProtocol) -> String {
        let base64 = Data(data).base64EncodedString().utf8
        var bytes: [UInt8] = []
        bytes.reserveCapacity(base64.count)
        for byte in base64 {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): bytes.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
