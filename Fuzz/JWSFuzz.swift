import AppStoreVerification

/// A StoreKit 2 signed transaction: the compact JWS, its header and `x5c` certificate chain (DER through
/// swift-certificates), the chain policy, the signature and the payload. Any answer but a crash is fine.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWS(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    withInput(start, count) { bytes in
        guard let jws = FuzzSupport.text(bytes) else { return }
        FuzzSupport.runBlocking {
            _ = try? await FuzzSupport.verifier.verifyTransaction(jws)
        }
    }
}
