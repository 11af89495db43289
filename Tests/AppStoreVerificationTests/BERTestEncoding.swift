/// Test-only ASN.1 surgery on receipts: a DER tree, re-encoded as BER the way Xcode writes receipts (indefinite
/// lengths, the content as a constructed or nested OCTET STRING), with attributes dropped or parts replaced, and
/// hand-made SignedData wrappers for payloads the simulator would never write. Inputs are trusted test data.
enum BERTestEncoding {
    indirect enum Element {
        case primitive(UInt8, [UInt8])
        case constructed(UInt8, [Element])
        /// Bytes written as they are.
        case raw([UInt8])
    }

    /// How the payload sits in `encapContentInfo`'s `[0]`.
    enum ContentStyle: CaseIterable {
        /// `04 len payload`.
        case primitive
        /// `24 80 (04 len segment)… 00 00`, segments of 100 bytes.
        case constructed
        /// `04 len (04 len payload)`.
        case nested
        /// `24 80 (04 len segment)… 00 00` whose segments join into `04 len payload`.
        case nestedConstructed
    }

    // MARK: - Reading and writing

    static func parse(_ bytes: [UInt8]) -> [Element] {
        var elements: [Element] = []
        var index = 0
        while index < bytes.count {
            let tag = bytes[index]
            var length = Int(bytes[index + 1])
            index += 2
            if length >= 0x80 {
                let count = length & 0x7F
                length = bytes[index..<index + count].reduce(0) { $0 << 8 | Int($1) }
                index += count
            }
            let contents = Array(bytes[index..<index + length])
            index += length
            elements.append(tag & 0x20 != 0 ? .constructed(tag, parse(contents)) : .primitive(tag, contents))
        }
        return elements
    }

    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var octets: [UInt8] = []
        var remaining = count
        while remaining > 0 {
            octets.insert(UInt8(remaining & 0xFF), at: 0)
            remaining >>= 8
        }
        return [0x80 | UInt8(octets.count)] + octets
    }

    static func tlv(_ tag: UInt8, _ contents: [UInt8]) -> [UInt8] { [tag] + length(contents.count) + contents }

    /// `element` with definite lengths, or with every constructed element in indefinite form.
    static func encode(_ element: Element, indefinite: Bool) -> [UInt8] {
        switch element {
        case .primitive(let tag, let contents):
            return tlv(tag, contents)
        case .constructed(let tag, let children):
            let inner = children.flatMap { encode($0, indefinite: indefinite) }
            return indefinite ? [tag, 0x80] + inner + [0, 0] : tlv(tag, inner)
        case .raw(let bytes):
            return bytes
        }
    }

    // MARK: - Receipts

    /// `receipt` (a simulator DER receipt) re-encoded: lengths indefinite (or definite), the payload's own SETs and
    /// SEQUENCEs too, attribute values as constructed OCTET STRINGs when `splitValues`, attribute types in
    /// `dropping` removed (receipt and in-app), the certificates replaced, or the content detached.
    static func reencode(
        _ receipt: [UInt8], indefinite: Bool = true, content style: ContentStyle = .primitive,
        splitValues: Bool = false, dropping: Set<Int> = [], certificates: [UInt8]? = nil,
        detached: Bool = false
    ) -> [UInt8] {
        guard case .constructed(0x30, let info) = parse(receipt)[0], case .constructed(0xA0, let wrapper) = info[1],
            case .constructed(0x30, var fields) = wrapper[0], case .constructed(0x30, let encap) = fields[2],
            case .constructed(0xA0, let explicit) = encap[1], case .primitive(0x04, let payload) = explicit[0]
        else { fatalError("not a simulator receipt") }

        let converted = encode(
            rewrite(
                parse(payload)[0], indefinite: indefinite, splitValues: splitValues,
                dropping: dropping), indefinite: indefinite)
        let contentBytes: [UInt8]
        switch style {
        case .primitive: contentBytes = tlv(0x04, converted)
        case .constructed: contentBytes = segmented(converted)
        case .nested: contentBytes = tlv(0x04, tlv(0x04, converted))
        case .nestedConstructed: contentBytes = segmented(tlv(0x04, converted))
        }
        fields[2] = .constructed(0x30, detached ? [encap[0]] : [encap[0], .constructed(0xA0, [.raw(contentBytes)])])
        if let certificates { fields[3] = .raw(certificates) }
        return encode(
            .constructed(0x30, [info[0], .constructed(0xA0, [.constructed(0x30, fields)])]),
            indefinite: indefinite)
    }

    /// A constructed OCTET STRING of 100-byte segments.
    static func segmented(_ bytes: [UInt8]) -> [UInt8] {
        let segments = stride(from: 0, to: bytes.count, by: 100).flatMap {
            tlv(0x04, Array(bytes[$0..<min($0 + 100, bytes.count)]))
        }
        return [0x24, 0x80] + segments + [0, 0]
    }

    /// A payload SET with in-app purchase values converted in turn.
    private static func rewrite(_ set: Element, indefinite: Bool, splitValues: Bool, dropping: Set<Int>) -> Element {
        guard case .constructed(0x31, let attributes) = set else { fatalError("not a SET") }
        var kept: [Element] = []
        for attribute in attributes {
            guard case .constructed(0x30, var parts) = attribute, case .primitive(0x02, let type) = parts[0],
                case .primitive(0x04, var value) = parts[2]
            else { fatalError("not an attribute") }
            let typeValue = type.reduce(0) { $0 << 8 | Int($1) }
            if dropping.contains(typeValue) { continue }
            if typeValue == 17 {
                value = encode(
                    rewrite(
                        parse(value)[0], indefinite: indefinite, splitValues: splitValues,
                        dropping: dropping), indefinite: indefinite)
            }
            if splitValues, value.count >= 2 {
                let half = value.count / 2
                parts[2] = .constructed(
                    0x24,
                    [
                        .primitive(0x04, Array(value[..<half])),
                        .primitive(0x04, Array(value[half...])),
                    ])
            } else {
                parts[2] = .primitive(0x04, value)
            }
            kept.append(.constructed(0x30, parts))
        }
        return .constructed(0x31, kept)
    }

    // MARK: - Hand-made receipts

    /// 1.2.840.113549.1.7.2 and 1.2.840.113549.1.7.1.
    static let signedDataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    static let dataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]

    /// A minimal SignedData (no certificates, no signers) around `content`, the bytes inside eContent's `[0]`.
    static func signedData(content: [UInt8], contentType: [UInt8] = signedDataOID) -> [UInt8] {
        let encap = tlv(0x30, tlv(0x06, dataOID) + tlv(0xA0, content))
        let signed = tlv(0x30, tlv(0x02, [1]) + tlv(0x31, []) + encap + tlv(0x31, []))
        return tlv(0x30, tlv(0x06, contentType) + tlv(0xA0, signed))
    }

    /// A minimal SignedData whose payload is a SET of `attributes`.
    static func receipt(_ attributes: [[UInt8]]) -> [UInt8] {
        signedData(content: tlv(0x04, tlv(0x31, attributes.flatMap { $0 })))
    }

    /// `SEQUENCE { type, 1, OCTET STRING value }`.
    static func attribute(_ type: Int, _ value: [UInt8]) -> [UInt8] {
        tlv(0x30, integer(type) + integer(1) + tlv(0x04, value))
    }

    static func integer(_ value: Int) -> [UInt8] {
        var octets: [UInt8] = []
        var remaining = value
        repeat {
            octets.insert(UInt8(truncatingIfNeeded: remaining), at: 0)
            remaining >>= 8
        } while remaining != 0 && remaining != -1
        if value >= 0, octets[0] & 0x80 != 0 { octets.insert(0, at: 0) }
        if value < 0, octets[0] & 0x80 == 0 { octets.insert(0xFF, at: 0) }
        return tlv(0x02, octets)
    }

    static func utf8(_ string: String) -> [UInt8] { tlv(0x0C, Array(string.utf8)) }
    static func ia5(_ string: String) -> [UInt8] { tlv(0x16, Array(string.utf8)) }

    /// An in-app purchase SET with the two required identifiers and `extra` attributes.
    static func inApp(product: String = "p", transaction: String = "t", _ extra: [[UInt8]] = []) -> [UInt8] {
        tlv(0x31, attribute(1702, utf8(product)) + attribute(1703, utf8(transaction)) + extra.flatMap { $0 })
    }
}
