extension AppReceiptParser {
    /// 0–63 for the standard alphabet, `pad` for `=`, `space` for whitespace, `invalid` for the rest.
    static let base64Table: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (index, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(character)] = UInt8(index)
        }
        for character in " \t\r\n\u{0B}\u{0C}".utf8 { table[Int(character)] = space }
        table[Int(UInt8(ascii: "="))] = pad
        return table
    }()
    static let invalid: UInt8 = 0xFF
    static let pad: UInt8 = 0xFE
    static let space: UInt8 = 0xFD

    /// A receipt's bytes from standard base64 (RFC 4648 §4), whitespace anywhere and padding optional, as
    /// `verifyReceipt` takes it; bounded like `parse(der:)`.
    public static func decodeBase64(_ text: some Collection<UInt8>) throws(ReceiptError) -> [UInt8] {
        // Base64 is 4/3 of the bytes; allow as much again for line breaks and indentation.
        guard text.count <= maxInputBytes / 3 * 8 else {
            throw ReceiptError(.tooLarge, "the receipt is larger than \(maxInputBytes) bytes")
        }
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3 + 3)
        var accumulator: UInt32 = 0
        var bits = 0
        var symbols = 0
        var padding = 0
        for byte in text {
            let value = base64Table[Int(byte)]
            switch value {
            case space:
                continue
            case pad:
                padding += 1
                guard padding <= 2 else { throw ReceiptError(.invalidBase64, "too much padding") }
            case invalid:
                throw ReceiptError(.invalidBase64, "not a base64 character")
            default:
                guard padding == 0 else { throw ReceiptError(.invalidBase64, "data after padding") }
                symbols += 1
                accumulator = accumulator << 6 | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                }
            }
        }
        guard symbols % 4 != 1, padding == 0 || (symbols + padding) % 4 == 0 else {
            throw ReceiptError(.invalidBase64, "the base64 text has a wrong length")
        }
        return output
    }
}
