import Foundation

@testable import AppStoreVerification

/// The StoreKit 1 receipt reader: BER/PKCS #7 from DER bytes, and the same behind base64. Any answer but a crash is
/// fine; a receipt that parses must parse the same way from its base64 text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReceipt(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    withInput(start, count) { bytes in
        let fromDER = try? AppReceiptParser.parse(der: bytes)
        if let fromDER {
            let base64 = Base64URL.standard(bytes)
            FuzzSupport.require(
                (try? AppReceiptParser.parse(base64: base64)) == fromDER, "DER and base64 parse differently")
        }
        if let text = FuzzSupport.text(bytes) { _ = try? AppReceiptParser.parse(base64: text) }
    }
}

extension Base64URL {
    /// Standard base64 with padding, as an app sends a receipt.
    static func standard(_ bytes: [UInt8]) -> String {
        var text = encode(bytes).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.utf8.count % 4 != 0 { text += "=" }
        return text
    }
}
