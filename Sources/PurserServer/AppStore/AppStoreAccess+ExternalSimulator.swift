import AppStoreSimulatorHTTP
import AppStoreVerification
import Crypto
import Foundation
import SwiftASN1
import X509

extension AppStoreAccess {
    /// An App Store simulator that runs elsewhere (`purser appstore-sim`, a chaos harness), reached over HTTP at
    /// `url`, so several replicas share one "Apple": its roots (signed payloads, receipts) are fetched and trusted,
    /// `verifyReceipt` and the App Store Server API are called at its URL, and Purser's Server API key (kept in
    /// `DATA/appstore-sim`) is registered with it at start. Notifications come from the simulator itself, to whatever URL it was given.
    /// - Throws: `ConfigurationError` when the simulator does not answer or refuses the key.
    public static func externalSimulator(
        at url: URL, configuration: ServerConfiguration,
        transport: any AppStoreHTTPTransport = HTTPClientTransport()
    ) async throws -> AppStoreAccess {
        let rootAnswer = try await call(
            transport,
            AppStoreHTTPRequest(
                method: "GET", url: url.appendingPathComponent("simulator/v1/root-certificate"), timeout: .seconds(10)),
            simulator: url)
        guard let root = try? Certificate(derEncoded: Array(rootAnswer.body)) else {
            throw ConfigurationError("the App Store simulator at \(url) answered no DER root certificate")
        }
        let receiptRootAnswer = try await call(
            transport,
            AppStoreHTTPRequest(
                method: "GET", url: url.appendingPathComponent("simulator/v1/receipt-root-certificate"),
                timeout: .seconds(10)),
            simulator: url)
        guard let receiptRoot = try? Certificate(derEncoded: Array(receiptRootAnswer.body)) else {
            throw ConfigurationError("the App Store simulator at \(url) answered no DER receipt root certificate")
        }
        let directory = URL(fileURLWithPath: configuration.dataDirectory).appendingPathComponent("appstore-sim")
        let key = try simulatorAPIKey(in: directory)
        let keyID = simulatorKeyID(for: key.publicKey)
        let registration = ServerAPIRoutes.KeyRegistration(
            issuerId: simulatorIssuer, keyId: keyID, bundleId: configuration.bundleId,
            publicKeyPEM: key.publicKey.pemRepresentation)
        let registered = try await call(
            transport,
            AppStoreHTTPRequest(
                method: "POST", url: url.appendingPathComponent("simulator/v1/server-api/keys"),
                headers: ["Content-Type": "application/json"], body: try JSONEncoder().encode(registration),
                timeout: .seconds(10)),
            simulator: url)
        guard (200..<300).contains(registered.status) else {
            throw ConfigurationError(
                "the App Store simulator at \(url) refused Purser's key: HTTP \(registered.status)")
        }
        let api = try AppStoreServerAPIClient(
            configuration: .init(
                issuerID: simulatorIssuer, keyID: keyID, bundleID: configuration.bundleId,
                privateKey: key, baseURL: url),
            transport: transport)
        let receipts = VerifyReceiptClient(
            configuration: .init(
                productionURL: url.appendingPathComponent("simulator/production/verifyReceipt"),
                sandboxURL: url.appendingPathComponent("simulator/sandbox/verifyReceipt"),
                sharedSecret: configuration.sharedSecret, timeout: configuration.verifyReceiptTimeout),
            transport: transport)
        let extra = try configuration.extraTrustedRoots()
        return AppStoreAccess(
            trustedRoots: [AppleRootCertificates.rootCAG3, root] + extra,
            receiptRoots: [AppleRootCertificates.appleIncRoot, receiptRoot] + extra,
            receipts: receipts, serverAPI: api)
    }

    private static func call(
        _ transport: any AppStoreHTTPTransport, _ request: AppStoreHTTPRequest,
        simulator url: URL
    ) async throws -> AppStoreHTTPResponse {
        do {
            return try await transport.send(request)
        } catch {
            throw ConfigurationError("the App Store simulator at \(url) does not answer: \(error)")
        }
    }
}
