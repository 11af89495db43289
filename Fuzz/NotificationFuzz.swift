import AppStoreVerification

/// An App Store Server Notification V2 `signedPayload`: the outer JWS, its payload (`data`, `summary`,
/// `externalPurchaseToken`), the nested signed transaction and renewal info, and the unverified UUID read used to
/// skip duplicates. Any answer but a crash is fine.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNotification(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    withInput(start, count) { bytes in
        guard let jws = FuzzSupport.text(bytes) else { return }
        _ = SignedDataVerifier.unverifiedNotificationUUID(of: jws)
        FuzzSupport.runBlocking {
            _ = try? await FuzzSupport.verifier.verifyNotification(jws)
        }
    }
}
