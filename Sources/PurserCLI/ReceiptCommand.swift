import AppStoreVerification
import ArgumentParser
import Foundation

extension Purser {
    /// `purser receipt`: decodes a StoreKit 1 app receipt, offline, for support staff.
    struct Receipt: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "receipt",
            abstract: "Decode a StoreKit 1 app receipt (DER or base64) and print it as JSON.",
            discussion: """
                Reads the PKCS#7 file StoreKit keeps at appStoreReceiptURL, or its base64 text. The signature is \
                NOT checked: nothing printed is trusted until verifyReceipt confirms it. Exits 1 with the failure \
                code on stderr.
                """)

        @Argument(help: "A file holding the receipt, or - for standard input.") var file: String

        func run() throws {
            let input = try readInput(file)
            let receipt: AppReceipt
            do {
                receipt = try AppReceiptParser.parse(fileContents: input)
            } catch {
                FileHandle.standardError.write(Data("\(error.code): \(error.message)\n".utf8))
                throw ExitCode(1)
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            print(String(decoding: try encoder.encode(receipt), as: UTF8.self))
        }
    }
}
