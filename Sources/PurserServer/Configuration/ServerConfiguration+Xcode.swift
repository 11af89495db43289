import Configuration
import Crypto
import Foundation
import PurserCore
import SwiftASN1
import X509

extension ServerConfiguration {
    /// Xcode's StoreKit testing, for development: a purchase made in an app run from Xcode with a `.storekit`
    /// configuration is signed on the Mac by Xcode's own certificate, not by Apple, so a server trusts it only when
    /// told to, by that certificate, and never in production.
    public struct Xcode: Sendable, Encodable {
        /// The certificate Xcode exports (open the `.storekit` file, Editor > Save Public Certificate: a DER `.cer`).
        /// Payloads carrying exactly it and saying environment `Xcode` are trusted; `environments` must list `Xcode`.
        public var certificateFile: String?
        public init() {}
    }

    /// `xcode.certificateFile` read and checked: a DER certificate with a P-256 key, and `Xcode` an accepted
    /// environment (trusting Xcode's signatures takes both settings); `nil` when unset.
    public func xcodeCertificate() throws(ConfigurationError) -> Certificate? {
        guard let file = xcode.certificateFile, !file.isEmpty else { return nil }
        guard let der = try? Data(contentsOf: URL(fileURLWithPath: file)) else {
            throw ConfigurationError("xcode.certificateFile: cannot read \(file)")
        }
        guard let certificate = try? Certificate(derEncoded: Array(der)) else {
            throw ConfigurationError(
                "xcode.certificateFile: \(file) is not a DER certificate (save it from Xcode: Editor > Save Public "
                    + "Certificate)")
        }
        guard P256.Signing.PublicKey(certificate.publicKey) != nil else {
            throw ConfigurationError("xcode.certificateFile: \(file) does not hold a P-256 key, as Xcode's does")
        }
        guard environments.contains(.xcode) else {
            throw ConfigurationError(
                "xcode.certificateFile trusts only payloads for environment Xcode: add \"Xcode\" to environments")
        }
        return certificate
    }

    /// The warning `serve` logs at start while Xcode's certificate is trusted.
    func xcodeWarning(_ certificate: Certificate) -> String {
        "TRUSTING XCODE'S STOREKIT TESTING CERTIFICATE (\(certificate.subject)) from \(xcode.certificateFile ?? ""): "
            + "purchases signed on that Mac in environment Xcode are credited. For development only; never in "
            + "production."
    }
}

extension ServerConfiguration.Xcode {
    /// `certificateFile` (string, optional), scoped to `xcode`.
    public init(reader: ConfigReader) {
        self.init()
        certificateFile = reader.string(forKey: "certificateFile")
    }
}
