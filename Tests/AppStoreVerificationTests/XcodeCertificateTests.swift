import AppStoreSimulator
import AppStoreVerification
import Foundation
import PurserCore
import Testing

/// `xcodeCertificate`: what Xcode's StoreKit testing signs (a one-certificate `x5c`) is trusted only with exactly
/// that certificate configured, and only for environment `Xcode`.
@Suite struct XcodeCertificateTests {
    let xcode: XcodeTestingSigner
    let authority: SimulatorCertificateAuthority

    init() throws {
        xcode = try XcodeTestingSigner(now: TestChain.reference)
        authority = try TestChain.authority()
    }

    func code(_ jws: String, trusting certificate: XcodeTestingSigner?) async -> VerificationError.Code? {
        let verifier = SignedDataVerifier(
            configuration: .init(trustedRoots: [authority.root], xcodeCertificate: certificate?.certificate),
            now: { TestChain.reference })
        do {
            _ = try await verifier.verifyTransaction(jws)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func trustedOnlyWithThatCertificateAndOnlyForXcode() async throws {
        let signed = try xcode.sign(TestChain.transaction(environment: "Xcode"))
        #expect(await code(signed, trusting: xcode) == nil)
        #expect(await code(signed, trusting: nil) == .untrustedChain)
        #expect(await code(signed, trusting: try XcodeTestingSigner(now: TestChain.reference)) == .untrustedChain)
        #expect(
            await code(try xcode.sign(TestChain.transaction(environment: "Sandbox")), trusting: xcode)
                == .wrongEnvironment)
        #expect(
            await code(try xcode.sign(TestChain.transaction(environment: "Production")), trusting: xcode)
                == .wrongEnvironment)
        let parts = signed.split(separator: ".")
        let other = try xcode.sign(TestChain.transaction(environment: "Xcode", id: "2000000000000099"))
        let spliced = [parts[0], parts[1], other.split(separator: ".")[2]].joined(separator: ".")
        #expect(await code(spliced, trusting: xcode) == .badSignature)
        // Apple's own chains still verify beside it.
        let apple = try JWSSigner(authority: authority).sign(TestChain.transaction())
        #expect(await code(apple, trusting: xcode) == nil)
    }

    @Test func checkedAtTheSigningTime() async throws {
        let late = TestChain.reference.addingTimeInterval(2 * 365 * 86_400)
        let signed = try xcode.sign(TestChain.transaction(signedAt: late, environment: "Xcode"))
        #expect(await code(signed, trusting: xcode) == .expired)
    }
}
