import Foundation
import SwiftASN1
import X509
import _CryptoExtras

extension ReceiptCertificateAuthority {
    /// Loads the receipt chain kept in `directory`, or creates one there on first start (also in a directory that
    /// holds only an older simulator's JWS chain). Files: `receipt-root.der`, `receipt-intermediate.der`,
    /// `receipt-leaf.der`, `receipt-leaf-key.pem` (mode 0600). The digest is read back from the leaf's signature.
    public static func loadOrCreate(in directory: URL, now: Date) throws -> ReceiptCertificateAuthority {
        let files = ["receipt-root.der", "receipt-intermediate.der", "receipt-leaf.der", "receipt-leaf-key.pem"].map {
            directory.appendingPathComponent($0)
        }
        let manager = FileManager.default
        if files.allSatisfy({ manager.fileExists(atPath: $0.path) }) {
            let certificates = try files.prefix(3).map { try Certificate(derEncoded: Array(Data(contentsOf: $0))) }
            let key = try _RSA.Signing.PrivateKey(
                pemRepresentation: String(decoding: Data(contentsOf: files[3]), as: UTF8.self))
            return ReceiptCertificateAuthority(
                root: certificates[0], intermediate: certificates[1], leaf: certificates[2], leafKey: key,
                digest: certificates[2].signatureAlgorithm == .sha1WithRSAEncryption ? .sha1 : .sha256)
        }
        let authority = try generate(validity: .standard(now: now))
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        for (file, certificate) in zip(files, [authority.root, authority.intermediate, authority.leaf]) {
            try Data(SimulatorCertificateAuthority.der(certificate)).write(to: file, options: .atomic)
        }
        try Data(authority.leafKey.pemRepresentation.utf8).write(to: files[3], options: .atomic)
        try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: files[3].path)
        return authority
    }
}
