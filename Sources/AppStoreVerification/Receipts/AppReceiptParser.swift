import Foundation

/// Decodes StoreKit 1 app receipts: the PKCS#7 (CMS) SignedData file StoreKit keeps at `appStoreReceiptURL`, as DER
/// (App Store) or BER with indefinite lengths (Xcode), raw or base64.
///
/// Only the structure is read: `ContentInfo { signedData, [0] SignedData { version, digestAlgorithms,
/// encapContentInfo { data, [0] OCTET STRING }, … } }`. Certificates and signer infos are skipped and **the signature
/// is not checked**: nothing in the result is trusted until `verifyReceipt` (or a signature check) confirms it.
///
/// The payload is a SET OF `SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`. Receipt attributes 0, 2,
/// 3, 12, 17, 19 and 21 and in-app attributes 1701–1721 (see `AppReceipt.Field`, `InAppPurchaseReceipt.Field`) are
/// decoded, unknown types skipped; when a type repeats, the last one wins. Identifiers are UTF8String, IA5String or
/// PrintableString and must be valid UTF-8. Dates are RFC 3339 IA5Strings; an empty one is `nil`, and one that does
/// not parse throws `malformed` rather than being dropped (a lost cancellation date would read as "not refunded").
/// An empty bundle id, product id or transaction id counts as missing. In-app purchases keep the receipt's order.
///
/// Hostile input is bounded: at most `maxInputBytes`, `maxDepth` levels of nesting, four OCTET STRINGs around the
/// payload, `maxElements` in-app purchases and `maxElements` attributes in any one SET besides them; every length is
/// checked before it is used. Empty input is `truncated`; bytes after the ContentInfo are `malformed`.
public enum AppReceiptParser {
    /// The largest receipt accepted, in bytes of DER (8 MiB).
    public static let maxInputBytes = 8 << 20
    /// How deep ASN.1 elements may nest.
    public static let maxDepth = BERReader.maxDepth
    /// The most in-app purchases in a receipt, and the most other attributes in one SET.
    public static let maxElements = 10_000

    /// Decodes a receipt file's bytes (DER or BER).
    public static func parse(der: [UInt8]) throws(ReceiptError) -> AppReceipt {
        try der.withUnsafeBufferPointer { (buffer) throws(ReceiptError) -> AppReceipt in
            try parse(UnsafeRawBufferPointer(buffer))
        }
    }

    /// Decodes a base64 receipt (standard alphabet, as `verifyReceipt` takes it); whitespace and line breaks are
    /// ignored.
    public static func parse(base64: String) throws(ReceiptError) -> AppReceipt {
        try parse(der: decodeBase64(base64.utf8))
    }

    /// Decodes a file that holds a receipt either as DER (which starts with `0x30`) or as base64 text.
    public static func parse(fileContents: Data) throws(ReceiptError) -> AppReceipt {
        guard fileContents.first == 0x30 else { return try parse(der: decodeBase64(fileContents)) }
        let result = fileContents.withUnsafeBytes { buffer in
            Result { () throws(ReceiptError) -> AppReceipt in try parse(buffer) }
        }
        return try result.get()
    }

    // MARK: - PKCS#7

    /// 1.2.840.113549.1.7.2, `signedData`.
    private static let signedDataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    /// 1.2.840.113549.1.7.1, `data`.
    private static let dataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]

    static func parse(_ der: UnsafeRawBufferPointer) throws(ReceiptError) -> AppReceipt {
        guard der.count <= maxInputBytes else {
            throw ReceiptError(.tooLarge, "the receipt is larger than \(maxInputBytes) bytes")
        }
        guard !der.isEmpty else { throw ReceiptError(.truncated, "the receipt is empty") }
        var top = BERReader(der)
        let contentInfo = try top.next(0x30, "ContentInfo SEQUENCE")
        guard top.isAtEnd else { throw ReceiptError(.malformed, "bytes after the ContentInfo") }

        var info = try top.children(of: contentInfo)
        let contentType = try info.next(0x06, "ContentInfo content type")
        guard info.contents(of: contentType).elementsEqual(signedDataOID) else {
            throw ReceiptError(.notSignedData, "the content type is not PKCS#7 signedData")
        }
        guard let explicit = try info.next(), explicit.tag == 0xA0 else {
            throw ReceiptError(.notSignedData, "the ContentInfo has no content")
        }
        var wrapper = try info.children(of: explicit)
        let signedData = try wrapper.next(0x30, "SignedData SEQUENCE")
        var fields = try wrapper.children(of: signedData)
        _ = try fields.next(0x02, "SignedData version")
        _ = try fields.next(0x31, "SignedData digestAlgorithms")
        let encapsulated = try fields.next(0x30, "SignedData encapContentInfo")
        // certificates, crls and signerInfos follow; the signature is verifyReceipt's business.

        var encap = try fields.children(of: encapsulated)
        let eContentType = try encap.next(0x06, "encapContentInfo content type")
        guard encap.contents(of: eContentType).elementsEqual(dataOID) else {
            throw ReceiptError(.notSignedData, "the signed content is not PKCS#7 data")
        }
        guard let eContent = try encap.next() else {
            throw ReceiptError(.notSignedData, "the receipt's content is not attached")
        }
        guard eContent.tag == 0xA0 else { throw ReceiptError(.malformed, "expected [0] eContent") }
        var explicitContent = try encap.children(of: eContent)
        guard let octets = try explicitContent.next(), explicitContent.isAtEnd else {
            throw ReceiptError(.malformed, "eContent must hold one OCTET STRING")
        }
        let depth = explicitContent.depth + 1
        return try explicitContent.withOctetString(octets) { (payload) throws(ReceiptError) -> AppReceipt in
            try decodeContent(payload, depth: depth, wrappers: 0)
        }
    }

    /// How many OCTET STRINGs may wrap the payload inside eContent. Xcode uses one; each may copy the payload when
    /// constructed, so the bound also bounds memory.
    private static let maxContentWrappers = 4

    /// The payload SET, unwrapping the extra OCTET STRINGs some receipts (Xcode's) put around it.
    private static func decodeContent(
        _ content: UnsafeRawBufferPointer, depth: Int,
        wrappers: Int
    ) throws(ReceiptError) -> AppReceipt {
        var reader = BERReader(content, depth: depth)
        guard let node = try reader.next() else { throw ReceiptError(.malformed, "the receipt's content is empty") }
        guard reader.isAtEnd else { throw ReceiptError(.malformed, "bytes after the receipt's payload") }
        switch node.tag {
        case 0x31:
            return try decodePayload(node, in: reader)
        case 0x04, 0x24:
            guard depth < maxDepth, wrappers < maxContentWrappers else {
                throw ReceiptError(.tooDeep, "more than \(maxContentWrappers) OCTET STRINGs around the payload")
            }
            return try reader.withOctetString(node) { (inner) throws(ReceiptError) -> AppReceipt in
                try decodeContent(inner, depth: depth + 1, wrappers: wrappers + 1)
            }
        default:
            throw ReceiptError(.malformed, "the receipt's payload is not a SET")
        }
    }

    // MARK: - Payload

    private static func decodePayload(_ set: BERReader.Node, in reader: BERReader) throws(ReceiptError) -> AppReceipt {
        typealias Field = AppReceipt.Field
        var attributes = try reader.children(of: set)
        var receipt = AppReceipt(bundleId: "")
        var others = 0
        while let node = try attributes.next() {
            let (type, value) = try attribute(node, in: attributes)
            if type == Field.inAppPurchase {
                guard receipt.inAppPurchases.count < maxElements else {
                    throw ReceiptError(.tooMany, "more than \(maxElements) in-app purchases")
                }
                let depth = attributes.depth + 2
                let purchase = try attributes.withOctetString(value) {
                    (bytes) throws(ReceiptError) -> InAppPurchaseReceipt in
                    try decodeInAppPurchase(bytes, depth: depth)
                }
                receipt.inAppPurchases.append(purchase)
                continue
            }
            others += 1
            guard others <= maxElements else { throw ReceiptError(.tooMany, "more than \(maxElements) attributes") }
            switch type {
            case Field.environment: receipt.environment = try string(value, in: attributes)
            case Field.bundleId: receipt.bundleId = try string(value, in: attributes)
            case Field.applicationVersion: receipt.applicationVersion = try string(value, in: attributes)
            case Field.originalApplicationVersion:
                receipt.originalApplicationVersion = try string(value, in: attributes)
            case Field.creationDate: receipt.creationDate = try date(value, in: attributes)
            case Field.expirationDate: receipt.expirationDate = try date(value, in: attributes)
            default: break
            }
        }
        guard !receipt.bundleId.isEmpty else { throw ReceiptError(.missingField, "the receipt has no bundle id") }
        return receipt
    }

    private static func decodeInAppPurchase(
        _ bytes: UnsafeRawBufferPointer,
        depth: Int
    ) throws(ReceiptError) -> InAppPurchaseReceipt {
        typealias Field = InAppPurchaseReceipt.Field
        var reader = BERReader(bytes, depth: depth)
        let set = try reader.next(0x31, "in-app purchase SET")
        guard reader.isAtEnd else { throw ReceiptError(.malformed, "bytes after an in-app purchase") }
        var attributes = try reader.children(of: set)
        var purchase = InAppPurchaseReceipt(productId: "", transactionId: "")
        var count = 0
        while let node = try attributes.next() {
            count += 1
            guard count <= maxElements else { throw ReceiptError(.tooMany, "more than \(maxElements) attributes") }
            let (type, value) = try attribute(node, in: attributes)
            switch type {
            case Field.quantity:
                guard let quantity = try Int(exactly: integer(value, in: attributes)) else {
                    throw ReceiptError(.malformed, "quantity out of range")
                }
                purchase.quantity = quantity
            case Field.productId: purchase.productId = try string(value, in: attributes)
            case Field.transactionId: purchase.transactionId = try string(value, in: attributes)
            case Field.originalTransactionId: purchase.originalTransactionId = try string(value, in: attributes)
            case Field.purchaseDate: purchase.purchaseDate = try date(value, in: attributes)
            case Field.originalPurchaseDate: purchase.originalPurchaseDate = try date(value, in: attributes)
            case Field.expiresDate: purchase.expiresDate = try date(value, in: attributes)
            case Field.webOrderLineItemId: purchase.webOrderLineItemId = try integer(value, in: attributes)
            case Field.cancellationDate: purchase.cancellationDate = try date(value, in: attributes)
            case Field.isTrialPeriod: purchase.isTrialPeriod = try integer(value, in: attributes) != 0
            case Field.isInIntroOfferPeriod: purchase.isInIntroOfferPeriod = try integer(value, in: attributes) != 0
            case Field.promotionalOfferId: purchase.promotionalOfferId = try string(value, in: attributes)
            default: break
            }
        }
        guard !purchase.productId.isEmpty else {
            throw ReceiptError(.missingField, "an in-app purchase has no product id")
        }
        guard !purchase.transactionId.isEmpty else {
            throw ReceiptError(.missingField, "an in-app purchase has no transaction id")
        }
        return purchase
    }

    /// The type and value OCTET STRING of `SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`; a type
    /// too large for an `Int` comes back as -1, which no field uses.
    @inline(__always)
    private static func attribute(
        _ node: BERReader.Node,
        in set: BERReader
    ) throws(ReceiptError) -> (type: Int, value: BERReader.Node) {
        guard node.tag == 0x30 else { throw ReceiptError(.malformed, "a receipt attribute is not a SEQUENCE") }
        var fields = try set.children(of: node)
        let type = try BERReader.integer(fields.contents(of: fields.next(0x02, "attribute type")))
        _ = try fields.next(0x02, "attribute version")
        guard let value = try fields.next(), fields.isAtEnd else {
            throw ReceiptError(.malformed, "a receipt attribute is not type, version and value")
        }
        return (Int(exactly: type) ?? -1, value)
    }

    // MARK: - Values

    /// The single element inside an attribute's value.
    @inline(__always)
    private static func withElement<R>(
        _ value: BERReader.Node, in set: BERReader,
        _ body: (BERReader.Node, UnsafeRawBufferPointer) throws(ReceiptError) -> R
    ) throws(ReceiptError) -> R {
        let depth = set.depth + 2
        return try set.withOctetString(value) { (bytes) throws(ReceiptError) -> R in
            var reader = BERReader(bytes, depth: depth)
            guard let element = try reader.next(), reader.isAtEnd else {
                throw ReceiptError(.malformed, "an attribute value is not one element")
            }
            return try body(element, reader.contents(of: element))
        }
    }

    private static func string(_ value: BERReader.Node, in set: BERReader) throws(ReceiptError) -> String {
        try withElement(value, in: set) { (element, contents) throws(ReceiptError) -> String in
            switch element.tag {
            case 0x0C, 0x16, 0x13: break  // UTF8String, IA5String, PrintableString
            default: throw ReceiptError(.malformed, "an attribute value is not a string")
            }
            let utf8 = contents.assumingMemoryBound(to: UInt8.self)
            // ASCII (every identifier Apple writes) is valid UTF-8; `String(validating:)` is generic over the
            // encoding and costs a metadata lookup per call, so only non-ASCII text goes through it.
            var combined: UInt8 = 0
            for byte in utf8 { combined |= byte }
            if combined < 0x80 { return String(decoding: utf8, as: UTF8.self) }
            guard let string = String(validating: utf8, as: UTF8.self) else {
                throw ReceiptError(.malformed, "an attribute value is not valid UTF-8")
            }
            return string
        }
    }

    private static func date(_ value: BERReader.Node, in set: BERReader) throws(ReceiptError) -> Date? {
        try withElement(value, in: set) { (element, contents) throws(ReceiptError) -> Date? in
            switch element.tag {
            case 0x16, 0x0C, 0x13: break
            default: throw ReceiptError(.malformed, "a date attribute is not a string")
            }
            if contents.isEmpty { return nil }
            guard let date = RFC3339.parse(contents) else {
                throw ReceiptError(.malformed, "a date attribute is not RFC 3339")
            }
            return date
        }
    }

    private static func integer(_ value: BERReader.Node, in set: BERReader) throws(ReceiptError) -> Int64 {
        try withElement(value, in: set) { (element, contents) throws(ReceiptError) -> Int64 in
            guard element.tag == 0x02 else { throw ReceiptError(.malformed, "an attribute value is not an INTEGER") }
            return try BERReader.integer(contents)
        }
    }
}
