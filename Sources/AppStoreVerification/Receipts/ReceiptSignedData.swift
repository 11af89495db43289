/// The parts of an app receipt's PKCS #7 (CMS) SignedData that its signature check needs, read with `BERReader`
/// and copied out of the file:
///
///     ContentInfo ::= SEQUENCE { contentType signedData, [0] EXPLICIT SignedData }
///     SignedData ::= SEQUENCE { version, digestAlgorithms SET, encapContentInfo SEQUENCE { data, [0] OCTET STRING },
///                               [0] IMPLICIT certificates OPTIONAL, [1] IMPLICIT crls OPTIONAL, signerInfos SET }
///     SignerInfo ::= SEQUENCE { version, sid, digestAlgorithm, [0] IMPLICIT signedAttrs OPTIONAL,
///                               signatureAlgorithm, signature OCTET STRING, [1] IMPLICIT unsignedAttrs OPTIONAL }
///
/// Exactly one signer. Its signature algorithm is `rsaEncryption` with the digest named by `digestAlgorithm` (as
/// Apple's receipts carry it) or `sha1WithRSAEncryption` / `sha256WithRSAEncryption`; SHA-1 and SHA-256 only. With
/// signed attributes (RFC 5652 §5.4) the signature covers their DER with a SET tag, and their `message-digest`
/// must be the content's digest; without, it covers the content itself. Certificates are only located here; the
/// verifier parses them, once per distinct chain.
struct ReceiptSignedData {
    enum Digest: Sendable {
        case sha1
        case sha256
    }

    /// The signed content (the receipt's payload), OCTET STRING segments joined.
    var content: [UInt8]
    /// The `certificates` field's contents, exactly as in the file: with `signer`, the key of the chain cache.
    var certificatesField: [UInt8]
    /// Each certificate's DER, in the order the file lists them.
    var certificates: [ArraySlice<UInt8>]
    /// The signer identifier's encoding: `IssuerAndSerialNumber`, or `[0] SubjectKeyIdentifier`.
    var signer: [UInt8]
    var digest: Digest
    /// What the signature covers: the content, or the signed attributes re-tagged as a SET.
    var signedBytes: [UInt8]
    /// The signed attributes' `message-digest`, which must equal the content's digest; `nil` without attributes.
    var messageDigest: [UInt8]?
    var signature: [UInt8]

    /// 1.2.840.113549.1.7.2, 1.2.840.113549.1.7.1.
    private static let signedDataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    private static let dataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
    /// 1.3.14.3.2.26 (SHA-1), 2.16.840.1.101.3.4.2.1 (SHA-256).
    private static let sha1OID: [UInt8] = [0x2B, 0x0E, 0x03, 0x02, 0x1A]
    private static let sha256OID: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]
    /// 1.2.840.113549.1.1.1 (rsaEncryption), .5 (sha1WithRSAEncryption), .11 (sha256WithRSAEncryption).
    private static let rsaPrefix: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01]
    /// 1.2.840.113549.1.9.3 (content-type), 1.2.840.113549.1.9.4 (message-digest).
    private static let contentTypeAttribute: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x03]
    private static let messageDigestAttribute: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x04]

    init(der: [UInt8]) throws(ReceiptError) {
        guard der.count <= AppReceiptParser.maxInputBytes else {
            throw ReceiptError(.tooLarge, "the receipt is larger than \(AppReceiptParser.maxInputBytes) bytes")
        }
        guard !der.isEmpty else { throw ReceiptError(.truncated, "the receipt is empty") }
        self = try der.withUnsafeBufferPointer { (buffer) throws(ReceiptError) -> ReceiptSignedData in
            try Self.read(UnsafeRawBufferPointer(buffer))
        }
    }

    private init(
        content: [UInt8], certificatesField: [UInt8], certificates: [ArraySlice<UInt8>], signer: [UInt8],
        digest: Digest, signedBytes: [UInt8], messageDigest: [UInt8]?, signature: [UInt8]
    ) {
        self.content = content
        self.certificatesField = certificatesField
        self.certificates = certificates
        self.signer = signer
        self.digest = digest
        self.signedBytes = signedBytes
        self.messageDigest = messageDigest
        self.signature = signature
    }

    private static func read(_ buffer: UnsafeRawBufferPointer) throws(ReceiptError) -> ReceiptSignedData {
        var top = BERReader(buffer)
        let contentInfo = try top.next(0x30, "ContentInfo SEQUENCE")
        guard top.isAtEnd else { throw ReceiptError(.malformed, "bytes after the ContentInfo") }
        var info = try top.children(of: contentInfo)
        guard info.contents(of: try info.next(0x06, "content type")).elementsEqual(signedDataOID) else {
            throw ReceiptError(.notSignedData, "the content type is not PKCS#7 signedData")
        }
        var wrapper = try info.children(of: try info.next(0xA0, "[0] SignedData"))
        var fields = try wrapper.children(of: try wrapper.next(0x30, "SignedData SEQUENCE"))
        _ = try fields.next(0x02, "SignedData version")
        _ = try fields.next(0x31, "SignedData digestAlgorithms")
        let content = try encapsulatedContent(fields.next(0x30, "encapContentInfo"), in: fields)

        var node = try fields.next()
        var certificates: [ArraySlice<UInt8>] = []
        var certificatesField: [UInt8] = []
        if let field = node, field.tag == 0xA0 {
            certificatesField = Array(fields.contents(of: field))
            var list = try fields.children(of: field)
            while let certificate = try list.next() {
                guard certificate.tag == 0x30, certificates.count < 16 else {
                    throw ReceiptError(.malformed, "the certificates are not a short list of SEQUENCEs")
                }
                let offset = certificate.element.lowerBound - field.contents.lowerBound
                certificates.append(certificatesField[offset..<(offset + certificate.element.count)])
            }
            node = try fields.next()
        }
        if let crls = node, crls.tag == 0xA1 { node = try fields.next() }
        guard let signerInfos = node, signerInfos.tag == 0x31, fields.isAtEnd else {
            throw ReceiptError(.malformed, "expected the signerInfos SET at the end of SignedData")
        }
        var signers = try fields.children(of: signerInfos)
        let signerInfo = try signers.next(0x30, "SignerInfo")
        guard signers.isAtEnd else { throw ReceiptError(.malformed, "more than one signer") }
        return try read(
            signerInfo, in: signers, content: content, certificates: certificates,
            certificatesField: certificatesField)
    }

    private static func encapsulatedContent(
        _ node: BERReader.Node, in fields: BERReader
    ) throws(ReceiptError) -> [UInt8] {
        var encap = try fields.children(of: node)
        guard encap.contents(of: try encap.next(0x06, "encapsulated content type")).elementsEqual(dataOID) else {
            throw ReceiptError(.notSignedData, "the signed content is not PKCS#7 data")
        }
        guard let explicit = try encap.next(), explicit.tag == 0xA0 else {
            throw ReceiptError(.notSignedData, "the receipt's content is not attached")
        }
        var inner = try encap.children(of: explicit)
        guard let octets = try inner.next(), inner.isAtEnd else {
            throw ReceiptError(.malformed, "eContent must hold one OCTET STRING")
        }
        return try inner.withOctetString(octets) { (bytes) throws(ReceiptError) -> [UInt8] in Array(bytes) }
    }

    private static func read(
        _ signerInfo: BERReader.Node, in set: BERReader, content: [UInt8], certificates: [ArraySlice<UInt8>],
        certificatesField: [UInt8]
    ) throws(ReceiptError) -> ReceiptSignedData {
        var fields = try set.children(of: signerInfo)
        _ = try fields.next(0x02, "SignerInfo version")
        guard let sid = try fields.next(), sid.tag == 0x30 || sid.tag == 0x80 else {
            throw ReceiptError(.malformed, "the signer is not named by issuer and serial number or key identifier")
        }
        let digest = try digestAlgorithm(fields.next(0x30, "SignerInfo digestAlgorithm"), in: fields)
        guard var next = try fields.next(), next.tag == 0x30 || next.tag == 0xA0 else {
            throw ReceiptError(.malformed, "expected the signed attributes or the signature algorithm")
        }
        var signedBytes = content
        var messageDigest: [UInt8]?
        if next.tag == 0xA0 {
            (signedBytes, messageDigest) = try signedAttributes(next, in: fields)
            next = try fields.next(0x30, "SignerInfo signatureAlgorithm")
        }
        var algorithm = try fields.children(of: next)
        let oid = algorithm.contents(of: try algorithm.next(0x06, "signature algorithm"))
        guard oid.count == rsaPrefix.count + 1, oid.prefix(rsaPrefix.count).elementsEqual(rsaPrefix),
            [0x01, digest == .sha1 ? 0x05 : 0x0B].contains(oid[rsaPrefix.count])
        else {
            throw ReceiptError(.malformed, "the signature algorithm is not RSA with the signer's digest")
        }
        let signature = try fields.next(0x04, "SignerInfo signature")
        return ReceiptSignedData(
            content: content, certificatesField: certificatesField, certificates: certificates,
            signer: Array(fields.encoding(of: sid)), digest: digest, signedBytes: signedBytes,
            messageDigest: messageDigest, signature: Array(fields.contents(of: signature)))
    }

    private static func digestAlgorithm(_ node: BERReader.Node, in fields: BERReader) throws(ReceiptError) -> Digest {
        var algorithm = try fields.children(of: node)
        let oid = algorithm.contents(of: try algorithm.next(0x06, "digest algorithm"))
        if oid.elementsEqual(sha1OID) { return .sha1 }
        if oid.elementsEqual(sha256OID) { return .sha256 }
        throw ReceiptError(.malformed, "the digest algorithm is neither SHA-1 nor SHA-256")
    }

    /// The DER the signature covers when signed attributes are present (`SET OF Attribute` with the SET tag in place
    /// of `[0]`) and their message digest. Requires a content type of `data`.
    private static func signedAttributes(
        _ node: BERReader.Node, in fields: BERReader
    ) throws(ReceiptError) -> (signed: [UInt8], messageDigest: [UInt8]) {
        var encoded = Array(fields.encoding(of: node))
        guard node.element.upperBound == node.contents.upperBound else {
            throw ReceiptError(.malformed, "signed attributes must have a definite length")
        }
        encoded[0] = 0x31
        var attributes = try fields.children(of: node)
        var contentTypeIsData = false
        var messageDigest: [UInt8]?
        while let attribute = try attributes.next() {
            var parts = try attributes.children(of: attribute)
            let type = parts.contents(of: try parts.next(0x06, "attribute type"))
            var values = try parts.children(of: try parts.next(0x31, "attribute values"))
            if type.elementsEqual(contentTypeAttribute) {
                contentTypeIsData = values.contents(of: try values.next(0x06, "content type")).elementsEqual(dataOID)
            } else if type.elementsEqual(messageDigestAttribute) {
                messageDigest = Array(values.contents(of: try values.next(0x04, "message digest")))
            }
        }
        guard contentTypeIsData, let messageDigest else {
            throw ReceiptError(.malformed, "the signed attributes lack the content type or the message digest")
        }
        return (encoded, messageDigest)
    }
}
