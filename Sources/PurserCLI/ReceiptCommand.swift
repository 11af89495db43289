import AppStoreVerification
import ArgumentParser
import Foundation
import SwiftASN1
import X509

extension Purser {
    /// `purser receipt`: decodes a StoreKit 1 app receipt, offline, for support staff; with `--verify`, checks its
    /// signature too.
    struct Receipt: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "receipt",
            abstract: "Decode a StoreKit 1 app receipt (DER or base64) as JSON; --verify checks its signature.",
            discussion: """
                Reads the PKCS#7 file StoreKit keeps at appStoreReceiptURL, or its base64 text. Without --verify the \
                signature is NOT checked. With --verify the signer's chain must lead to Apple Inc.'s root (or a \
                --root), every certificate valid at the receipt's creation date, and the signature must cover the \
                content; the JSON is printed either way. Exits 1 with the failure code on stderr (the receipt's \
                own code when it does not decode, else bad_signature, untrusted_chain, missing_apple_oid, expired \
                or malformed).
                """)

        @Flag(help: "Check the receipt's signature as the server does with receipts.verification local.")
        var verify = false
        @Option(name: .customLong("root"), help: "An extra trusted root certificate (DER) for --verify. Repeatable.")
        var roots: [String] = []
        @Argument(help: "A file holding the receipt, or - for standard input.") var file: String

        func validate() throws {
            if !roots.isEmpty, !verify { throw ValidationError("--root needs --verify") }
        }

        func run() async throws {
            let input = try readInput(file)
            let receipt: AppReceipt
            let der: [UInt8]
            do {
                der = input.first == 0x30 ? Array(input) : try AppReceiptParser.decodeBase64(input)
                receipt = try AppReceiptParser.parse(der: der)
            } catch {
                try fail("\(error.code): \(error.message)")
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            print(String(decoding: try encoder.encode(receipt), as: UTF8.self))
            guard verify else { return }
            var trusted = [AppleRootCertificates.appleIncRoot]
            for path in roots {
                guard let bytes = try? Data(contentsOf: URL(fileURLWithPath: path)),
                    let root = try? Certificate(derEncoded: Array(bytes))
                else { throw ValidationError("--root \(path) is not a readable DER certificate") }
                trusted.append(root)
            }
            do {
                _ = try await AppReceiptVerifier(configuration: .init(trustedRoots: trusted)).verify(der: der)
            } catch {
                try fail("\(error.code): \(error.message)")
            }
        }

        /// Writes the failure's code and message on stderr and exits 1.
        private func fail(_ line: String) throws -> Never {
            FileHandle.standardError.write(Data((line + "\n").utf8))
            throw ExitCode(1)
        }
    }
}
