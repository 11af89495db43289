import AppStoreVerification
import ArgumentParser
import Foundation
import PurserCore
import SwiftASN1
import X509

extension Purser {
    /// `purser verify`: checks a signed transaction or notification the way the server does, offline.
    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify an App Store signed transaction or notification (JWS) and print its payload as JSON.",
            discussion: "Trusts Apple Root CA - G3 plus every --root. Exits 1 with the failure code on stderr.")

        @Option(name: .customLong("bundle-id"), help: "Require this bundle id.") var bundleID: String?
        @Option(help: "Require this environment: Production or Sandbox.") var environment: String?
        @Option(name: .customLong("app-apple-id"), help: "Require this app Apple id on production notifications.")
        var appAppleID: Int64?
        @Option(name: .customLong("root"), help: "An extra trusted root certificate (DER). Repeatable.")
        var roots: [String] = []
        @Argument(help: "A file holding the JWS, or - for standard input.") var file: String

        func validate() throws {
            if let environment, AppStoreEnvironment(rawValue: environment) == nil {
                throw ValidationError(
                    "--environment must be Production or Sandbox (Xcode and LocalTesting are not signed by Apple)")
            }
        }

        func run() async throws {
            var trusted = [AppleRootCertificates.rootCAG3]
            for path in roots {
                guard let der = try? Data(contentsOf: URL(fileURLWithPath: path)),
                    let root = try? Certificate(derEncoded: Array(der))
                else { throw ValidationError("--root \(path) is not a readable DER certificate") }
                trusted.append(root)
            }
            let input = try readInput(file)
            let claims = ClaimsPolicy(
                bundleID: bundleID, environments: environment.flatMap(AppStoreEnvironment.init).map { [$0] },
                appAppleID: appAppleID)
            let verifier = SignedDataVerifier(configuration: .init(trustedRoots: trusted, claims: claims))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            do {
                let output: Data
                switch try await verifier.verify(String(decoding: input, as: UTF8.self)) {
                case .transaction(let transaction):
                    output = try encoder.encode(VerifyOutput(kind: "transaction", transaction: transaction))
                case .notification(let verified):
                    output = try encoder.encode(
                        VerifyOutput(
                            kind: "notification", notification: verified.notification,
                            transaction: verified.transaction))
                }
                print(String(decoding: output, as: UTF8.self))
            } catch let error as VerificationError {
                FileHandle.standardError.write(Data("\(error.code): \(error.message)\n".utf8))
                throw ExitCode(1)
            }
        }
    }
}

/// What `purser verify` prints.
struct VerifyOutput: Encodable {
    var kind: String
    var notification: JWSNotification?
    var transaction: JWSTransaction?
}
