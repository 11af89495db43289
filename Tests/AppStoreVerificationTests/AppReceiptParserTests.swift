import AppStoreSimulator
import AppStoreVerification
import Foundation
import Testing

@Suite struct AppReceiptParserTests {
    typealias BER = BERTestEncoding

    let issuer: AppReceiptIssuer

    init() throws {
        issuer = AppReceiptIssuer(authority: .ephemeral)
    }

    /// 2024-01-01T00:00:00Z plus whole seconds: the encoder writes RFC 3339 without fractions.
    static func time(_ seconds: Int) -> Date { TestChain.reference.addingTimeInterval(Double(seconds)) }

    /// A receipt with `count` purchases exercising every field: even ones are consumables with empty dates, odd ones
    /// subscriptions with every date, the third refunded.
    static func receipt(purchases count: Int) -> AppReceipt {
        let purchases = (0..<count).map { (index: Int) -> InAppPurchaseReceipt in
            let id = String(2_000_000_000_000_000 + index)
            guard index % 2 == 1 else {
                return InAppPurchaseReceipt(
                    quantity: index % 5 + 1, productId: "com.example.gold\(index)",
                    transactionId: id, originalTransactionId: id, webOrderLineItemId: 0)
            }
            return InAppPurchaseReceipt(
                quantity: 1, productId: "com.example.monthly", transactionId: id,
                originalTransactionId: "1000000000000001", purchaseDate: time(index * 60),
                originalPurchaseDate: time(0), expiresDate: time(index * 60 + 2_592_000),
                webOrderLineItemId: 3_000_000_000_000 + Int64(index),
                cancellationDate: index == 3 ? time(9_000) : nil, isTrialPeriod: index == 1,
                isInIntroOfferPeriod: index != 1, promotionalOfferId: index == 5 ? "spring" : nil)
        }
        return AppReceipt(
            bundleId: "com.example.app", applicationVersion: "42", originalApplicationVersion: "1.0",
            creationDate: time(86_400), expirationDate: count == 2 ? time(172_800) : nil,
            environment: "ProductionSandbox", inAppPurchases: purchases)
    }

    func issue(purchases count: Int) throws -> [UInt8] {
        try issuer.issue(Self.receipt(purchases: count), signingTime: TestChain.reference)
    }

    private func expectFailure(
        _ code: ReceiptError.Code, _ der: [UInt8],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(throws: ReceiptError(code, ""), sourceLocation: sourceLocation) { try AppReceiptParser.parse(der: der) }
    }

    // MARK: - Round trips

    @Test(arguments: [0, 1, 2, 100])
    func decodesSimulatorReceipts(purchases: Int) throws {
        let decoded = try AppReceiptParser.parse(der: issue(purchases: purchases))
        #expect(decoded == Self.receipt(purchases: purchases))
        if purchases == 100 {
            #expect(decoded.inAppPurchases.map(\.transactionId) == (0..<100).map { String(2_000_000_000_000_000 + $0) })
            #expect(decoded.inAppPurchases[3].cancellationDate == Self.time(9_000))
            #expect(decoded.inAppPurchases[2].purchaseDate == nil && decoded.inAppPurchases[2].expiresDate == nil)
        }
    }

    @Test(arguments: BERTestEncoding.ContentStyle.allCases)
    func decodesBERWithIndefiniteLengths(style: BERTestEncoding.ContentStyle) throws {
        let der = try issue(purchases: 2)
        for splitValues in [false, true] {
            let ber = BER.reencode(der, content: style, splitValues: splitValues)
            #expect(ber != der)
            #expect(try AppReceiptParser.parse(der: ber) == Self.receipt(purchases: 2), "split: \(splitValues)")
        }
        let definite = BER.reencode(der, indefinite: false, content: style == .primitive ? .nested : style)
        #expect(try AppReceiptParser.parse(der: definite) == Self.receipt(purchases: 2))
    }

    @Test func decodesBase64WithLineBreaksAndFiles() throws {
        let der = try issue(purchases: 2)
        let expected = Self.receipt(purchases: 2)
        let wrapped = Data(der).base64EncodedString(options: [
            .lineLength64Characters, .endLineWithCarriageReturn,
            .endLineWithLineFeed,
        ])
        #expect(wrapped.contains("\r\n"))
        #expect(try AppReceiptParser.parse(base64: "  " + wrapped + "\n") == expected)
        let unpadded = Data(der).base64EncodedString().replacingOccurrences(of: "=", with: "")
        #expect(try AppReceiptParser.parse(base64: unpadded) == expected)
        #expect(try AppReceiptParser.parse(fileContents: Data(der)) == expected)
        #expect(try AppReceiptParser.parse(fileContents: Data((wrapped + "\n").utf8)) == expected)

        for bad in ["!!!!", "QUJD=A", "QUJDR", "QQ===", "QUJD\u{00E9}"] {
            #expect(throws: ReceiptError(.invalidBase64, "")) { try AppReceiptParser.parse(base64: bad) }
        }
    }

    @Test func decodesHandMadeValues() throws {
        let receipt = BER.receipt([
            BER.attribute(2, BER.tlv(0x13, Array("com.example.app".utf8))),  // PrintableString
            BER.attribute(3, BER.ia5("1.2")),
            BER.attribute(0, BER.utf8("Xcode é")),
            BER.attribute(12, BER.ia5("2024-01-01T01:30:00.250+01:30")),
            BER.attribute(21, BER.ia5("")),
            BER.attribute(99_999, [0xFF]),  // unknown types are skipped, whatever they hold
            BER.attribute(
                17,
                BER.inApp([
                    BER.attribute(1701, BER.integer(3)), BER.attribute(1713, BER.integer(1)),
                    BER.attribute(1704, BER.ia5("2024-02-29T23:59:60z")),
                    BER.attribute(1711, BER.integer(-1)), BER.attribute(1799, []),
                ])),
        ])
        let decoded = try AppReceiptParser.parse(der: receipt)
        #expect(decoded.bundleId == "com.example.app")
        #expect(decoded.applicationVersion == "1.2")
        #expect(decoded.environment == "Xcode é")
        #expect(decoded.creationDate == TestChain.reference.addingTimeInterval(0.25))
        #expect(decoded.expirationDate == nil)
        let purchase = try #require(decoded.inAppPurchases.first)
        #expect(purchase.quantity == 3 && purchase.isTrialPeriod == true && purchase.webOrderLineItemId == -1)
        #expect(purchase.purchaseDate == Date(timeIntervalSince1970: 1_709_251_200))  // the leap second rolls over
        #expect(purchase.productId == "p" && purchase.transactionId == "t" && purchase.cancellationDate == nil)
    }

    @Test func rejectsMalformedDates() {
        for text in [
            "2024-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01",
            "2024-01-01T00:00:00", "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00+0100",
            "2024-01-01X00:00:00Z", "2024-01-01T00:00:00Zjunk", "2024-01-01T00:00:00+24:00",
        ] {
            let receipt = BER.receipt([BER.attribute(2, BER.utf8("b")), BER.attribute(12, BER.ia5(text))])
            expectFailure(.malformed, receipt)
        }
        expectFailure(.malformed, BER.receipt([BER.attribute(2, BER.utf8("b")), BER.attribute(12, BER.integer(0))]))
    }

    // MARK: - Hostile input

    @Test func rejectsEveryTruncation() throws {
        let der = try issue(purchases: 1)
        let ber = BER.reencode(der, content: .nestedConstructed, splitValues: true)
        for receipt in [der, ber] {
            for count in 0..<receipt.count {
                expectFailure(.truncated, Array(receipt[..<count]))
            }
        }
        expectFailure(.malformed, der + [0])
    }

    @Test func rejectsHostileLengths() {
        expectFailure(.truncated, [0x30, 0x84, 0x80, 0x00, 0x00, 0x00, 0x06, 0x00])  // 2^31 bytes claimed
        expectFailure(.truncated, [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 64))
        expectFailure(.malformed, [0x30, 0x85, 0x01, 0x00, 0x00, 0x00, 0x00])  // five length octets
        expectFailure(.malformed, [0x30, 0x88] + [UInt8](repeating: 0xFF, count: 8))
        expectFailure(.malformed, [0x04, 0x80, 0x00, 0x00])  // indefinite primitive
        expectFailure(.malformed, [0x3F, 0x81, 0x82, 0x83, 0x84, 0x05, 0x00])  // tag number in five octets
        expectFailure(.malformed, [0x3F, 0x81, 0x01, 0x00])  // high tag number: not a SEQUENCE
        // A length inside the receipt that runs past its container.
        let inner = BER.tlv(0x06, BER.signedDataOID) + [0xA0, 0x84, 0x7F, 0xFF, 0xFF, 0xFF]
        expectFailure(.malformed, BER.tlv(0x30, inner) + [0x00])
        expectFailure(.tooLarge, [UInt8](repeating: 0x30, count: AppReceiptParser.maxInputBytes + 1))
        #expect(throws: ReceiptError(.tooLarge, "")) {
            try AppReceiptParser.parse(base64: String(repeating: "A", count: 24 << 20))
        }
    }

    @Test func rejectsDepthBombs() throws {
        let count = 10_000
        let bomb = (0..<count).flatMap { _ in [UInt8]([0x30, 0x80]) } + [UInt8](repeating: 0, count: 2 * count)
        expectFailure(.tooDeep, bomb)

        // Definite-length nesting is never descended into: the first element is not the content type.
        var definite: [UInt8] = []
        for _ in 0..<count { definite = BER.tlv(0x30, definite) }
        expectFailure(.malformed, definite)

        // Nested indefinite elements where certificates belong, in an otherwise valid BER receipt.
        let der = try issue(purchases: 1)
        let certificates =
            [0xA0, 0x80] + (0..<count).flatMap { _ in [UInt8]([0x30, 0x80]) }
            + [UInt8](repeating: 0, count: 2 * count + 2)
        expectFailure(.tooDeep, BER.reencode(der, certificates: certificates))
        #expect(
            try AppReceiptParser.parse(der: BER.reencode(der, certificates: [0xA0, 0x80, 0x30, 0x80, 0, 0, 0, 0]))
                == Self.receipt(purchases: 1))

        // OCTET STRINGs wrapped in OCTET STRINGs, and constructed ones nested in constructed ones.
        var wrapped = BER.tlv(0x31, BER.attribute(2, BER.utf8("b")))
        for _ in 0..<5 { wrapped = BER.tlv(0x04, wrapped) }
        #expect(try AppReceiptParser.parse(der: BER.signedData(content: wrapped)).bundleId == "b")
        for _ in 5..<100 { wrapped = BER.tlv(0x04, wrapped) }
        expectFailure(.tooDeep, BER.signedData(content: wrapped))
        expectFailure(.tooDeep, BER.signedData(content: BER.segmented(wrapped)))  // joins into 100 more
        let segments =
            (0..<100).flatMap { _ in [UInt8]([0x24, 0x80]) } + BER.tlv(0x04, [0x31, 0x00])
            + [UInt8](repeating: 0, count: 200)
        expectFailure(.tooDeep, BER.signedData(content: segments))
    }

    @Test func rejectsWhatIsNotASignedReceipt() throws {
        let der = try issue(purchases: 1)
        expectFailure(.truncated, [])
        expectFailure(.malformed, [0x31, 0x00])
        var wrongOID = der
        let at = try #require(wrongOID.firstRange(of: BER.signedDataOID))
        wrongOID[at.upperBound - 1] = 0x03  // envelopedData
        expectFailure(.notSignedData, wrongOID)
        expectFailure(.notSignedData, BER.signedData(content: [], contentType: BER.dataOID))
        expectFailure(.notSignedData, BER.reencode(der, detached: true))
        expectFailure(.notSignedData, BER.tlv(0x30, BER.tlv(0x06, BER.signedDataOID)))
        var notData = der
        let data = try #require(notData.firstRange(of: BER.dataOID))
        notData[data.upperBound - 1] = 0x05
        expectFailure(.notSignedData, notData)
        expectFailure(.malformed, BER.signedData(content: BER.tlv(0x04, BER.tlv(0x30, []))))
        expectFailure(.malformed, BER.receipt([BER.tlv(0x31, [])]))
        expectFailure(.malformed, BER.receipt([BER.attribute(2, BER.utf8("b")) + [0x02, 0x01, 0x00]]))
    }

    @Test func requiresIdentifiers() throws {
        let der = try issue(purchases: 2)
        expectFailure(.missingField, BER.reencode(der, dropping: [AppReceipt.Field.bundleId]))
        expectFailure(.missingField, BER.reencode(der, indefinite: false, dropping: [AppReceipt.Field.bundleId]))
        expectFailure(.missingField, try issuer.issue(AppReceipt(bundleId: ""), signingTime: TestChain.reference))
        expectFailure(.missingField, BER.reencode(der, dropping: [InAppPurchaseReceipt.Field.productId]))
        expectFailure(.missingField, BER.reencode(der, dropping: [InAppPurchaseReceipt.Field.transactionId]))
        expectFailure(
            .missingField,
            BER.receipt([
                BER.attribute(2, BER.utf8("b")),
                BER.attribute(17, BER.inApp(transaction: "")),
            ]))
        expectFailure(.malformed, BER.receipt([BER.attribute(2, BER.tlv(0x0C, [0xC3, 0x28]))]))  // not UTF-8
    }

    @Test func limitsCounts() throws {
        let limit = AppReceiptParser.maxElements
        let purchase = BER.attribute(17, BER.inApp())
        let atLimit = BER.receipt([BER.attribute(2, BER.utf8("b"))] + Array(repeating: purchase, count: limit))
        #expect(try AppReceiptParser.parse(der: atLimit).inAppPurchases.count == limit)
        expectFailure(
            .tooMany,
            BER.receipt(
                [BER.attribute(2, BER.utf8("b"))]
                    + Array(repeating: purchase, count: limit + 1)))
        expectFailure(
            .tooMany,
            BER.receipt(
                [BER.attribute(2, BER.utf8("b"))]
                    + Array(repeating: BER.attribute(7, []), count: limit + 1)))
        let crowded = BER.inApp(Array(repeating: BER.attribute(1799, []), count: limit))
        expectFailure(.tooMany, BER.receipt([BER.attribute(2, BER.utf8("b")), BER.attribute(17, crowded)]))
    }

    @Test func errorsCompareByCodeAndPrintSafely() {
        let error = ReceiptError(.truncated, "the input ends inside an element")
        #expect(error == ReceiptError(.truncated, "other"))
        #expect(error != ReceiptError(.malformed, "the input ends inside an element"))
        #expect(error.description == "truncated: the input ends inside an element")
        #expect(ReceiptError.Code.notSignedData.description == "not_signed_data")
        #expect(ReceiptError.Code.invalidBase64.description == "invalid_base64")
    }

    // MARK: - Random damage

    /// SplitMix64: a seeded generator, so that a failure reproduces.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func survivesRandomTruncationsAndByteFlips() throws {
        let der1 = try issue(purchases: 1)
        let der2 = try issue(purchases: 2)
        let samples = [
            der1, der2, BER.reencode(der2, content: .nestedConstructed, splitValues: true),
            BER.reencode(der1, content: .constructed),
        ]
        // Half of the flips land in the first 900 bytes: the headers and the payload, which come before the
        // certificates and signer info that the parser skips.
        var random = SplitMix64(state: 0x5EED_CAFE)
        let iterations = 20_000
        var outcomes: [String: Int] = [:]
        let start = ContinuousClock.now
        for _ in 0..<iterations {
            var bytes = samples[Int.random(in: 0..<samples.count, using: &random)]
            if Bool.random(using: &random) {
                bytes.removeLast(Int.random(in: 0...bytes.count, using: &random))
            }
            guard !bytes.isEmpty else { continue }
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let high = Bool.random(using: &random) ? min(bytes.count, 900) : bytes.count
                bytes[Int.random(in: 0..<high, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            }
            do {
                let receipt = try AppReceiptParser.parse(der: bytes)
                #expect(receipt.inAppPurchases.count <= 2)
                outcomes["ok", default: 0] += 1
            } catch {
                outcomes[error.code.description, default: 0] += 1
            }
        }
        let elapsed = ContinuousClock.now - start
        #expect(outcomes.values.reduce(0, +) >= 5_000)
        #expect(outcomes.count >= 3, "\(outcomes)")
        #expect(elapsed < .seconds(10))
        print("random damage: \(iterations) cases in \(elapsed): \(outcomes.sorted { $0.key < $1.key })")
    }
}
