import Crypto
import Foundation
import SwiftASN1
import X509

extension SimulatorCertificateAuthority {
    /// Loads the authority kept in `directory`, or creates one there on first start.
    /// Files: `root.der`, `intermediate.der`, `leaf.der`, `leaf-key.pem` (mode 0600).
    public static func loadOrCreate(in directory: URL, now: Date) throws -> SimulatorCertificateAuthority {
        let files = ["root.der", "intermediate.der", "leaf.der", "leaf-key.pem"].map {
            directory.appendingPathComponent($0)
        }
        let manager = FileManager.default
        if files.allSatisfy({ manager.fileExists(atPath: $0.path) }) {
            let certificates = try files.prefix(3).map { try Certificate(derEncoded: Array(Data(contentsOf: $0))) }
            let key = try P256.Signing.PrivateKey(
                pemRepresentation: String(decoding: Data(contentsOf: files[3]), as: UTF8.self))
            return SimulatorCertificateAuthority(
                root: certificates[0], intermediate: certificates[1],
                leaf: certificates[2], leafKey: key)
        }
        let authority = try generate(validity: .standard(now: now))
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(der(authority.root)).write(to: files[0], options: .atomic)
        try Data(der(authority.intermediate)).write(to: files[1], options: .atomic)
        try Data(der(authority.leaf)).write(to: files[2], options: .atomic)
        try Data(authority.leafKey.pemRepresentation.utf8).write(to: files[3], options: .atomic)
        try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: files[3].path)
        return authority
    }
}
