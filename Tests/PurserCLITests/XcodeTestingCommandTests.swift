import AppStoreSimulator
import AppStoreVerification
import Foundation
import PurserChaos
import PurserCore
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `purser serve` with `xcode.certificateFile`: a purchase Xcode's StoreKit testing signed on a Mac (here: signed the
/// way Xcode signs, one self-signed certificate) is credited over HTTP, loudly announced at start; without "Xcode"
/// among the environments the server refuses to start, and another Mac's certificate is refused.
@Suite struct XcodeTestingCommandTests {
    let serve = ServeCommandTests()

    /// A catalog, Xcode's exported certificate, and the environment that turns the option on.
    func setUp(_ xcode: XcodeTestingSigner, in directory: URL, environments: String) throws -> (
        arguments: [String], environment: [String: String]
    ) {
        try #"{"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}}}}"#
            .write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
        let certificate = directory.appendingPathComponent("StoreKitTestCertificate.cer")
        try Data(xcode.certificateDER).write(to: certificate)
        return (
            [
                "serve", "--data-dir", directory.appendingPathComponent("data").path, "--port", "0",
                "--auth", "development", "--appstore", "simulator",
                "--catalog", directory.appendingPathComponent("catalog.json").path,
            ],
            ["PURSER_XCODE_CERTIFICATE_FILE": certificate.path, "PURSER_ENVIRONMENTS": environments]
        )
    }

    /// A purchase as Xcode's StoreKit testing signs it, for `token`'s order.
    func xcodePurchase(_ signer: XcodeTestingSigner, token: String, id: String) throws -> String {
        var transaction = JWSTransaction(transactionId: id, bundleId: "com.example.purser.demo", productId: "gold60")
        transaction.originalTransactionId = id
        transaction.quantity = 1
        transaction.type = "Consumable"
        transaction.appAccountToken = token
        transaction.environment = AppStoreEnvironment.xcode.rawValue
        transaction.purchaseDate = Date().appStoreMilliseconds
        transaction.signedDate = Date().appStoreMilliseconds
        return try signer.sign(transaction)
    }

    @Test func creditsWhatXcodeSignedAndAnnouncesIt() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let xcode = try XcodeTestingSigner()
        let (arguments, environment) = try setUp(xcode, in: directory, environments: "Production,Sandbox,Xcode")
        let (process, port) = try await serve.launch(arguments, environment: environment)
        defer { if process.isRunning { process.terminate() } }
        #expect(process.output.contains("TRUSTING XCODE'S STOREKIT TESTING CERTIFICATE"))
        let base = "http://127.0.0.1:\(port)"

        let (_, order) = try await serve.request(
            "POST", "\(base)/v1/orders", user: "alice", json: #"{"productId": "gold60"}"#)
        let token = try #require(order["appAccountToken"] as? String)
        let jws = try xcodePurchase(xcode, token: token, id: "1")
        let (status, decision) = try await serve.request(
            "POST", "\(base)/v1/transactions", user: "alice", json: #"{"signedTransaction": "\#(jws)"}"#)
        #expect(status == 200)
        #expect(decision["decision"] as? String == "delivered")
        let (_, wallet) = try await serve.request("GET", "\(base)/v1/wallet", user: "alice")
        #expect((wallet["balances"] as? [String: Int])?["gold"] == 60)

        let stranger = try xcodePurchase(try XcodeTestingSigner(), token: token, id: "2")
        let (refused, error) = try await serve.request(
            "POST", "\(base)/v1/transactions", user: "alice", json: #"{"signedTransaction": "\#(stranger)"}"#)
        #expect(refused == 422)
        #expect((error["error"] as? [String: Any])?["code"] as? String == "untrusted_chain", "\(error)")
    }

    @Test func refusesToStartUnlessXcodeIsAnAcceptedEnvironment() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (arguments, environment) = try setUp(
            try XcodeTestingSigner(), in: directory, environments: "Production,Sandbox")
        let run = try await PurserProcess.run(arguments, environment: environment)
        #expect(run.status != 0)
        #expect(run.stderr.contains("add \"Xcode\" to environments"), "\(run.stderr)")
    }
}
