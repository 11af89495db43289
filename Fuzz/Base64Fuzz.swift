import Foundation

@testable import AppStoreVerification

/// The base64url decoder of JWS segments and the receipt's base64 decoder. Properties: whatever decodes re-encodes
/// to text that decodes to the same bytes, and any bytes survive an encode and a decode unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBase64(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    withInput(start, count) { bytes in
        if let decoded = Base64URL.decode(bytes) {
            let again = Base64URL.decode(Base64URL.encode(decoded).utf8)
            FuzzSupport.require(again == decoded, "base64url: decode(encode(decode(x))) != decode(x)")
        }
        FuzzSupport.require(Base64URL.decode(Base64URL.encode(bytes).utf8) == Data(bytes), "base64url round trip")

        if let decoded = try? AppReceiptParser.decodeBase64(bytes) {
            let again = try? AppReceiptParser.decodeBase64(Array(Data(decoded).base64EncodedString().utf8))
            FuzzSupport.require(again == decoded, "base64: decode(encode(decode(x))) != decode(x)")
        }
        let encoded = Array(Data(bytes).base64EncodedString(options: .lineLength64Characters).utf8)
        FuzzSupport.require((try? AppReceiptParser.decodeBase64(encoded)) == bytes, "base64 round trip")
    }
}
