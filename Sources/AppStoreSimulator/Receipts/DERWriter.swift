/// Just enough DER to write app receipts: tag-length-value with definite lengths.
struct DERWriter {
    private(set) var bytes: [UInt8] = []

    mutating func tlv(_ tag: UInt8, _ content: [UInt8]) {
        bytes.append(tag)
        let count = content.count
        if count < 0x80 {
            bytes.append(UInt8(count))
        } else {
            var lengthBytes: [UInt8] = []
            var remaining = count
            while remaining > 0 {
                lengthBytes.insert(UInt8(remaining & 0xFF), at: 0)
                remaining >>= 8
            }
            bytes.append(0x80 | UInt8(lengthBytes.count))
            bytes.append(contentsOf: lengthBytes)
        }
        bytes.append(contentsOf: content)
    }

    mutating func integer(_ value: Int64) {
        var content: [UInt8] = []
        var remaining = value
        repeat {
            content.insert(UInt8(truncatingIfNeeded: remaining), at: 0)
            remaining >>= 8
        } while remaining != 0 && remaining != -1
        // Keep the sign bit right: a positive number whose top bit is set gets a leading zero byte.
        if value >= 0, content[0] & 0x80 != 0 { content.insert(0, at: 0) }
        if value < 0, content[0] & 0x80 == 0 { content.insert(0xFF, at: 0) }
        tlv(0x02, content)
    }

    mutating func utf8String(_ value: String) { tlv(0x0C, Array(value.utf8)) }
    mutating func ia5String(_ value: String) { tlv(0x16, Array(value.utf8)) }
    mutating func octetString(_ value: [UInt8]) { tlv(0x04, value) }
    /// Bytes that are already a whole DER element.
    mutating func raw(_ element: [UInt8]) { bytes.append(contentsOf: element) }

    mutating func constructed(_ tag: UInt8, _ build: (inout DERWriter) -> Void) {
        var inner = DERWriter()
        build(&inner)
        tlv(tag, inner.bytes)
    }

    static func build(_ body: (inout DERWriter) -> Void) -> [UInt8] {
        var writer = DERWriter()
        body(&writer)
        return writer.bytes
    }
}
