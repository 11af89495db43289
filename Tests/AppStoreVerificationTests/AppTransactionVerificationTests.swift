import AppStoreSimulator
import AppStoreVerification
import Foundation
import PurserCore
import Testing

/// Signed app transactions (StoreKit's `AppTransaction`): the chain checked at `signedDate`, or at
/// `receiptCreationDate` when Apple left `signedDate` out, then the claims Apple's libraries check.
@Suite struct AppTransactionVerificationTests {
    let authority: SimulatorCertificateAuthority
    let signer: JWSSigner

    init() throws {
        authority = try TestChain.authority()
        signer = JWSSigner(authority: authority)
    }

    func appTransaction(
        environment: AppStoreEnvironment = .production, app: Int64? = 42, signedAt: Date? = TestChain.reference,
        createdAt: Date? = nil
    ) -> JWSAppTransaction {
        var payload = JWSAppTransaction(
            bundleId: "com.example.app", receiptType: environment.rawValue, appTransactionId: "7012345678901234")
        payload.appAppleId = app
        payload.signedDate = signedAt?.appStoreMilliseconds
        payload.receiptCreationDate = createdAt?.appStoreMilliseconds
        return payload
    }

    func code(_ jws: String, _ verifier: SignedDataVerifier) async -> VerificationError.Code? {
        do {
            _ = try await verifier.verifyAppTransaction(jws)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func checksTheAppItsEnvironmentAndInProductionItsAppleID() async throws {
        let verifier = TestChain.verifier(
            trusting: [authority.root],
            claims: ClaimsPolicy(bundleID: "com.example.app", environments: [.production], appAppleID: 42))
        let decoded = try await verifier.verifyAppTransaction(try signer.sign(appTransaction()))
        #expect(decoded.appTransactionId == "7012345678901234")
        #expect(await code(try signer.sign(appTransaction(app: 7)), verifier) == .wrongApp)
        #expect(
            await code(try signer.sign(appTransaction(environment: .sandbox, app: nil)), verifier) == .wrongEnvironment)
        var otherBundle = appTransaction()
        otherBundle.bundleId = "com.example.other"
        #expect(await code(try signer.sign(otherBundle), verifier) == .wrongBundle)
        let foreign = JWSSigner(authority: try TestChain.authority())
        #expect(await code(try foreign.sign(appTransaction()), verifier) == .untrustedChain)
    }

    @Test func withoutSignedDateTheChainIsCheckedAtTheReceiptsCreation() async throws {
        // The verifier's clock is far past the chain's end: only a date from the payload can make it verify.
        let verifier = TestChain.verifier(
            trusting: [authority.root], now: TestChain.reference.addingTimeInterval(50 * 365 * 86_400))
        let created = appTransaction(signedAt: nil, createdAt: TestChain.reference)
        _ = try await verifier.verifyAppTransaction(try signer.sign(created))
        #expect(await code(try signer.sign(appTransaction(signedAt: nil)), verifier) == .expired)
    }
}
