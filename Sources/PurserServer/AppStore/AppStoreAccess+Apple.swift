import AppStoreVerification
import Foundation
import PurserCore
import SwiftASN1
import X509

extension AppStoreAccess {
    /// Apple's real endpoints, from the configuration: Apple Root CA - G3 (signed payloads) and Apple Inc.'s RSA root
    /// (app receipts), each plus `trustedRootFiles`; `verifyReceipt` with the shared secret; and the App Store Server
    /// API when `appStoreServerAPI` credentials are set, on Apple's production host with the sandbox host beside it
    /// (or only the sandbox, or only `baseURL`).
    public static func apple(
        _ configuration: ServerConfiguration,
        transport: any AppStoreHTTPTransport = HTTPClientTransport()
    ) throws(ConfigurationError)
        -> AppStoreAccess
    {
        let extra = try configuration.extraTrustedRoots()
        let settings = configuration.appStoreServerAPI
        let sandbox =
            settings.baseURL == nil && settings.environment == .production
            ? try serverAPIClient(configuration, transport: transport, sandbox: true) : nil
        return AppStoreAccess(
            trustedRoots: [AppleRootCertificates.rootCAG3] + extra,
            receiptRoots: [AppleRootCertificates.appleIncRoot] + extra,
            receipts: VerifyReceiptClient(
                configuration: .init(
                    sharedSecret: configuration.sharedSecret,
                    timeout: configuration.verifyReceiptTimeout),
                transport: transport),
            serverAPI: try serverAPIClient(configuration, transport: transport),
            sandboxServerAPI: sandbox)
    }

    /// The App Store Server API client from `appStoreServerAPI` credentials; `nil` when none are configured. Its host
    /// is `baseURL`, else Apple's host for `environment` (or for the sandbox when `sandbox`): the current one, or the
    /// former `…itunes.apple.com` one with `legacyHost`.
    static func serverAPIClient(
        _ configuration: ServerConfiguration,
        transport: any AppStoreHTTPTransport, sandbox: Bool = false
    ) throws(ConfigurationError)
        -> AppStoreServerAPIClient?
    {
        let settings = configuration.appStoreServerAPI
        guard let issuer = settings.issuerId, let keyID = settings.keyId, let file = settings.privateKeyFile else {
            return nil
        }
        guard let pem = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw ConfigurationError("appStoreServerAPI.privateKeyFile \(file) is not readable")
        }
        typealias Hosts = AppStoreServerAPIClient.Configuration
        let sandboxHost = settings.legacyHost ? Hosts.legacySandboxURL : Hosts.sandboxURL
        let productionHost = settings.legacyHost ? Hosts.legacyProductionURL : Hosts.productionURL
        let base =
            sandbox
            ? sandboxHost
            : settings.baseURL.flatMap(URL.init(string:))
                ?? (settings.environment == .sandbox ? sandboxHost : productionHost)
        do {
            return try AppStoreServerAPIClient(
                configuration: .init(
                    issuerID: issuer, keyID: keyID, bundleID: configuration.bundleId,
                    privateKeyPEM: pem, baseURL: base),
                transport: transport)
        } catch {
            throw ConfigurationError("appStoreServerAPI: \(error)")
        }
    }
}

extension ServerConfiguration {
    /// `trustedRootFiles` read as DER certificates.
    func extraTrustedRoots() throws(ConfigurationError) -> [Certificate] {
        var roots: [Certificate] = []
        for file in trustedRootFiles {
            guard let der = try? Data(contentsOf: URL(fileURLWithPath: file)),
                let root = try? Certificate(derEncoded: Array(der))
            else { throw ConfigurationError("trusted root \(file) is not a readable DER certificate") }
            roots.append(root)
        }
        return roots
    }

    /// `verifyReceiptTimeoutSeconds` as a duration.
    var verifyReceiptTimeout: Duration { .milliseconds(Int64(verifyReceiptTimeoutSeconds * 1000)) }
}
