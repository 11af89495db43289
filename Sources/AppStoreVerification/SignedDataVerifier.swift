import Crypto
import Foundation
import PurserCore
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509

/// Verifies and decodes JWS payloads signed by the App Store: ES256, an `x5c` chain of exactly three certificates
/// to a trusted root with Apple's OIDs, every certificate valid at the payload's `signedDate`, then the claims.
/// Verified chains are cached (keyed by the exact certificate bytes) and payloads decoded once, so a warm call
/// costs about one signature verification. For development, `xcodeCertificate` also trusts what Xcode's StoreKit
/// testing signs on one Mac: an `x5c` of exactly that certificate, for environment `Xcode` only.
public struct SignedDataVerifier: Sendable {
    public struct Configuration: Sendable {
        /// Trust anchors. Apple Root CA - G3 by default; add the simulator's root only outside production.
        public var trustedRoots: [Certificate]
        public var claims: ClaimsPolicy
        /// How many verified chains to remember.
        public var chainCacheCapacity: Int
        /// Xcode's StoreKit testing certificate (Xcode: Editor > Save Public Certificate), trusted for payloads that
        /// carry exactly it as their one-certificate `x5c` and say environment `Xcode`; `nil` (the default) trusts
        /// nothing Xcode signs. Development only: whoever holds that Mac's key can sign such payloads.
        public var xcodeCertificate: Certificate?

        public init(
            trustedRoots: [Certificate] = [AppleRootCertificates.rootCAG3], claims: ClaimsPolicy = .none,
            chainCacheCapacity: Int = 64, xcodeCertificate: Certificate? = nil
        ) {
            self.trustedRoots = trustedRoots
            self.claims = claims
            self.chainCacheCapacity = chainCacheCapacity
            self.xcodeCertificate = xcodeCertificate
        }
    }

    public let configuration: Configuration
    private let roots: CertificateStore
    private let cache: JWSChainCache
    private let now: @Sendable () -> Date

    /// - Parameter now: the clock used when a payload carries no `signedDate`.
    public init(configuration: Configuration = .init(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.configuration = configuration
        self.roots = CertificateStore(configuration.trustedRoots)
        self.cache = ChainCache(capacity: configuration.chainCacheCapacity)
        self.now = now
    }

    /// Verifies a signed transaction, signature and claims.
    public func verifyTransaction(_ jws: String) async throws(VerificationError) -> JWSTransaction {
        let transaction = try await verifySignature(jws, as: JWSTransaction.self)
        try configuration.claims.check(transaction)
        return transaction
    }

    /// Verifies a notification and the signed transaction nested in it, signatures and claims.
    public func verifyNotification(_ jws: String) async throws(VerificationError) -> VerifiedNotification {
        let notification = try await verifySignature(jws, as: JWSNotification.self)
        try configuration.claims.check(notification)
        var transaction: JWSTransaction?
        if let nested = notification.data?.signedTransactionInfo {
            transaction = try await verifyTransaction(nested)
        }
        return VerifiedNotification(notification: notification, transaction: transaction)
    }

    /// Verifies a signed app transaction (StoreKit's `AppTransaction`), signature and claims: its bundle id and
    /// environment (`receiptType`), and in production its app Apple id, as Apple's libraries check them.
    public func verifyAppTransaction(_ jws: String) async throws(VerificationError) -> JWSAppTransaction {
        let appTransaction = try await verifySignature(jws, as: JWSAppTransaction.self)
        try configuration.claims.check(appTransaction)
        return appTransaction
    }

    /// Verifies either kind, telling them apart by the payload (a notification has `notificationType`).
    public func verify(_ jws: String) async throws(VerificationError) -> VerifiedPayload {
        struct Probe: Decodable { var notificationType: String? }
        let parts = try CompactJWS(jws)
        let probe = try? JSONDecoder().decode(Probe.self, from: parts.payload)
        if probe?.notificationType != nil {
            return .notification(try await verifyNotification(jws))
        }
        return .transaction(try await verifyTransaction(jws))
    }

    /// The `notificationUUID` a signed notification claims, read WITHOUT verifying anything: only for skipping work
    /// already done (a forged payload can at most skip itself). Nil when `jws` is not a notification.
    public static func unverifiedNotificationUUID(of jws: String) -> String? {
        struct Claim: Decodable { var notificationUUID: String }
        guard let payload = CompactJWS.unverifiedPayload(of: jws) else { return nil }
        return try? JSONDecoder().decode(Claim.self, from: payload).notificationUUID
    }

    /// The `transactionId` a signed transaction claims and whether it claims a revocation, read WITHOUT verifying
    /// anything: only for skipping a transaction the ledger already holds as Apple describes it (a forged payload
    /// can at most skip itself). Nil when `jws` is not a transaction.
    public static func unverifiedTransactionClaim(of jws: String) -> (transactionID: String, revoked: Bool)? {
        struct Claim: Decodable {
            var transactionId: String
            var revocationDate: Int64?
        }
        guard let payload = CompactJWS.unverifiedPayload(of: jws),
            let claim = try? JSONDecoder().decode(Claim.self, from: payload)
        else { return nil }
        return (claim.transactionId, claim.revocationDate != nil)
    }

    /// Checks only that Apple signed `jws` (chain, time, signature) and decodes its payload; no claims.
    public func verifySignature<Payload: SignedPayload>(
        _ jws: String, as type: Payload.Type
    ) async throws(VerificationError) -> Payload {
        let parts = try CompactJWS(jws)
        let payload: Payload
        do {
            payload = try Self.payloadDecoder.decode(Payload.self, from: parts.payload)
        } catch {
            throw VerificationError(.malformed, "the payload is not a valid \(Payload.self)")
        }
        let signedAt = payload.signingDate.map(Date.init(appStoreMilliseconds:)) ?? now()
        let chain: JWSChainCache.Entry
        if let xcode = try xcodeChain(for: parts) {
            guard payload.claimedEnvironment == AppStoreEnvironment.xcode.rawValue else {
                throw VerificationError(
                    .wrongEnvironment, "Xcode's StoreKit testing certificate signs only environment Xcode")
            }
            chain = xcode
        } else {
            chain = try await trustedChain(for: parts, at: signedAt)
        }
        guard signedAt >= chain.validFrom, signedAt <= chain.validUntil else {
            throw VerificationError(.expired, "the certificate chain was not valid at the signing time \(signedAt)")
        }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: parts.signature) else {
            throw VerificationError(.badSignature, "the signature is not a 64-byte ES256 signature")
        }
        guard chain.leafKey.isValidSignature(signature, for: parts.signingDigest) else {
            throw VerificationError(.badSignature, "the signature does not match the signed data")
        }
        return payload
    }

    /// The configured Xcode certificate as the chain, when `x5c` is exactly that one certificate; nil otherwise.
    private func xcodeChain(for parts: CompactJWS) throws(VerificationError) -> JWSChainCache.Entry? {
        guard let xcode = configuration.xcodeCertificate else { return nil }
        let header = try parts.decodeHeader()
        guard header.alg == "ES256", let x5c = header.x5c, x5c.count == 1,
            let der = Data(base64Encoded: x5c[0]), (try? Certificate(derEncoded: Array(der))) == xcode
        else { return nil }
        guard let key = P256.Signing.PublicKey(xcode.publicKey) else {
            throw VerificationError(.untrustedChain, "the Xcode certificate's key is not a P-256 key")
        }
        return JWSChainCache.Entry(leafKey: key, validFrom: xcode.notValidBefore, validUntil: xcode.notValidAfter)
    }

    /// One decoder for every payload (its options never change; each decode is independent).
    private static let payloadDecoder = JSONDecoder()

    /// The cached chain for this header, or a full verification of it at `date` on a miss.
    private func trustedChain(for parts: CompactJWS, at date: Date) async throws(VerificationError)
        -> JWSChainCache.Entry
    {
        if let cached = cache.entry(for: parts.headerSegment) { return cached }
        let header = try parts.decodeHeader()
        guard header.alg == "ES256" else {
            throw VerificationError(.malformed, "alg must be ES256, not \(header.alg ?? "(none)")")
        }
        guard let x5c = header.x5c else { throw VerificationError(.untrustedChain, "the header has no x5c chain") }
        guard x5c.count == 3 else {
            throw VerificationError(.untrustedChain, "x5c must hold exactly three certificates, it holds \(x5c.count)")
        }
        var certificates: [Certificate] = []
        for (index, base64) in x5c.enumerated() {
            guard let der = Data(base64Encoded: base64), let certificate = try? Certificate(derEncoded: Array(der))
            else {
                throw VerificationError(.malformed, "x5c[\(index)] is not a base64 DER certificate")
            }
            certificates.append(certificate)
        }
        let (leaf, intermediate) = (certificates[0], certificates[1])
        if let missing = AppleChainPolicy.missingMarker(leaf: leaf, intermediate: intermediate) {
            throw VerificationError(.missingAppleOID, missing)
        }
        for (name, certificate) in [("leaf", leaf), ("intermediate", intermediate)]
        where date < certificate.notValidBefore || date > certificate.notValidAfter {
            throw VerificationError(.expired, "the \(name) certificate was not valid at the signing time \(date)")
        }
        var verifier = Verifier(rootCertificates: roots) {
            RFC5280Policy(fixedExpiryValidationTime: date)
            AppleChainPolicy()
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore([intermediate]))
        guard case .validCertificate(let chain) = result else {
            throw VerificationError(.untrustedChain, "the chain does not lead to a trusted root")
        }
        guard let key = P256.Signing.PublicKey(leaf.publicKey) else {
            throw VerificationError(.untrustedChain, "the leaf key is not a P-256 key")
        }
        let entry = JWSChainCache.Entry(
            leafKey: key,
            validFrom: chain.map(\.notValidBefore).max()!,
            validUntil: chain.map(\.notValidAfter).min()!
        )
        cache.insert(entry, for: parts.headerSegment)
        return entry
    }
}

/// Verified `x5c` chains by JWS header.
typealias JWSChainCache = ChainCache<HeaderSegment, P256.Signing.PublicKey>
