import AppStoreSimulator
import AppStoreVerification
import Foundation
import Testing

/// `purser receipt` on the built binary: a DER file, base64 on standard input, damaged receipts, and `--verify`.
@Suite struct ReceiptCommandTests {
    @Test func decodesAndRefusesReceipts() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-receipt-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let reference = Date(timeIntervalSince1970: 1_704_067_200)  // 2024-01-01T00:00:00Z
        let authority = ReceiptCertificateAuthority.ephemeral
        let receipt = AppReceipt(
            bundleId: "com.example.app", applicationVersion: "42", originalApplicationVersion: "1.0",
            creationDate: reference,
            inAppPurchases: [
                InAppPurchaseReceipt(
                    productId: "com.example.gold60", transactionId: "2000000000000001",
                    purchaseDate: reference, cancellationDate: reference.addingTimeInterval(3_600)),
                InAppPurchaseReceipt(quantity: 2, productId: "com.example.gold10", transactionId: "2000000000000002"),
            ])
        let der = try AppReceiptIssuer(authority: authority).issue(receipt, signingTime: reference)
        let file = directory.appendingPathComponent("receipt.der")
        try Data(der).write(to: file)

        let ok = try await PurserProcess.run(["receipt", file.path])
        #expect(ok.status == 0, "stderr: \(ok.stderr)")
        let printed = try #require(try JSONSerialization.jsonObject(with: Data(ok.stdout.utf8)) as? [String: Any])
        #expect(printed["bundleId"] as? String == "com.example.app")
        #expect(printed["creationDate"] as? String == "2024-01-01T00:00:00Z")
        let purchases = try #require(printed["inAppPurchases"] as? [[String: Any]])
        #expect(purchases.map { $0["transactionId"] as? String } == ["2000000000000001", "2000000000000002"])
        #expect(purchases.first?["cancellationDate"] as? String == "2024-01-01T01:00:00Z")
        #expect(purchases.last?["purchaseDate"] == nil)
        #expect(ok.stdout.contains("\"applicationVersion\" : \"42\",\n  \"bundleId\""))  // pretty, sorted keys

        let base64 = Data(der).base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed]) + "\n"
        let piped = try await PurserProcess.run(["receipt", "-"], stdin: base64)
        #expect(piped.status == 0, "stderr: \(piped.stderr)")
        #expect(piped.stdout == ok.stdout)

        let truncated = directory.appendingPathComponent("truncated.der")
        try Data(der.prefix(der.count / 2)).write(to: truncated)
        let broken = try await PurserProcess.run(["receipt", truncated.path])
        #expect(broken.status == 1)
        #expect(broken.stdout.isEmpty)
        #expect(broken.stderr.split(separator: "\n").count == 1)
        #expect(broken.stderr.hasPrefix("truncated: ") || broken.stderr.hasPrefix("malformed: "), "\(broken.stderr)")

        let garbage = try await PurserProcess.run(["receipt", "-"], stdin: "not a receipt!")
        #expect(garbage.status == 1)
        #expect(garbage.stderr.hasPrefix("invalid_base64: "))

        let missing = try await PurserProcess.run(["receipt", directory.appendingPathComponent("absent").path])
        #expect(missing.status != 0)
    }

    @Test(arguments: [ReceiptCertificateAuthority.Digest.sha1, .sha256])
    func verifiesWhatTheSimulatorSignsAndRefusesATamperedReceipt(_ digest: ReceiptCertificateAuthority.Digest)
        async throws
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-receipt-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let now = Date()
        let authority = try ReceiptCertificateAuthority.generate(validity: .standard(now: now), digest: digest)
        let receipt = AppReceipt(
            bundleId: "com.example.app", creationDate: now,
            inAppPurchases: [InAppPurchaseReceipt(productId: "gold60", transactionId: "2000000000000001")])
        let der = try AppReceiptIssuer(authority: authority).issue(receipt, signingTime: now)
        let root = directory.appendingPathComponent("root.der")
        try Data(authority.rootDER).write(to: root)
        let file = directory.appendingPathComponent("receipt.der")
        try Data(der).write(to: file)

        let ok = try await PurserProcess.run(["receipt", "--verify", "--root", root.path, file.path])
        #expect(ok.status == 0, "stderr: \(ok.stderr)")
        #expect(ok.stdout.contains("\"transactionId\" : \"2000000000000001\""))

        let untrusted = try await PurserProcess.run(["receipt", "--verify", file.path])
        #expect(untrusted.status == 1)
        #expect(untrusted.stderr.hasPrefix("untrusted_chain: "), "\(untrusted.stderr)")
        #expect(!untrusted.stdout.isEmpty, "the JSON is printed either way")

        var tampered = der
        let product = Array("gold60".utf8)
        let at = try #require((0...(der.count - 6)).first { der[$0..<($0 + 6)].elementsEqual(product) })
        tampered[at + 5] = UInt8(ascii: "1")
        let piped = try await PurserProcess.run(
            ["receipt", "--verify", "--root", root.path, "-"], stdin: Data(tampered).base64EncodedString())
        #expect(piped.status == 1)
        #expect(piped.stderr.hasPrefix("bad_signature: "), "\(piped.stderr)")

        let rootWithoutVerify = try await PurserProcess.run(["receipt", "--root", root.path, file.path])
        #expect(rootWithoutVerify.status != 0)
    }
}
