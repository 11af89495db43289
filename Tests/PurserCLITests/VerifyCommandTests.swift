import AppStoreSimulator
import AppStoreVerification
import Foundation
import Testing

/// Runs the built `purser` binary, as support staff would.
@Suite struct VerifyCommandTests {
    /// The binary under test; `ServeCommandTests` uses it too.
    static var binary: URL { PurserProcess.binary }

    func run(_ arguments: [String], stdin: String? = nil) async throws -> PurserProcess.Run {
        try await PurserProcess.run(arguments, stdin: stdin.map { Data($0.utf8) })
    }

    @Test func verifiesAndRefusesSignedTransactions() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-cli-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let authority = try SimulatorCertificateAuthority.generate(validity: .standard(now: Date()))
        let store = try SimulatedAppStore(
            signer: JWSSigner(authority: authority),
            configuration: .init(defaultBundleID: "com.example.app"))
        let (transaction, jws) = try await store.purchase(.init(productId: "gold60"))
        let refund = try await store.refund(transactionID: transaction.transactionId)
        let root = directory.appendingPathComponent("root.der")
        try Data(authority.rootDER).write(to: root)
        let file = directory.appendingPathComponent("transaction.jws")
        try jws.write(to: file, atomically: true, encoding: .utf8)

        let ok = try await run([
            "verify", "--root", root.path, "--bundle-id", "com.example.app", "--environment", "Sandbox", file.path,
        ])
        #expect(ok.status == 0, "stderr: \(ok.stderr)")
        let printed = try JSONSerialization.jsonObject(with: Data(ok.stdout.utf8)) as? [String: Any]
        #expect(printed?["kind"] as? String == "transaction")
        #expect((printed?["transaction"] as? [String: Any])?["transactionId"] as? String == transaction.transactionId)

        let notification = try await run(["verify", "--root", root.path, "-"], stdin: refund.notification)
        #expect(notification.status == 0, "stderr: \(notification.stderr)")
        #expect(notification.stdout.contains("\"notificationType\" : \"REFUND\""))

        let untrusted = try await run(["verify", file.path])
        #expect(untrusted.status == 1)
        #expect(untrusted.stderr.hasPrefix("untrusted_chain: "))

        let wrongBundle = try await run(["verify", "--root", root.path, "--bundle-id", "com.other", file.path])
        #expect(wrongBundle.status == 1)
        #expect(wrongBundle.stderr.hasPrefix("wrong_bundle: "))

        var parts = jws.split(separator: ".").map(String.init)
        parts[2] = String(parts[2].reversed())
        let forged = try await run(["verify", "--root", root.path, "-"], stdin: parts.joined(separator: "."))
        #expect(forged.status == 1)
        #expect(forged.stderr.split(separator: "\n").count == 1)
        #expect(forged.stderr.hasPrefix("bad_signature: ") || forged.stderr.hasPrefix("malformed: "))

        let garbage = try await run(["verify", "-"], stdin: "hello")
        #expect(garbage.status == 1)
        #expect(garbage.stderr.hasPrefix("malformed: "))
    }
}
