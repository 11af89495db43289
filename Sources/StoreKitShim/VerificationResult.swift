/// StoreKit 2's verification wrapper. The simulator signs genuinely, so its transactions arrive `verified`; Purser's
/// server verifies the JWS itself either way.
public enum VerificationResult<SignedType> {
    case unverified(SignedType, VerificationResult<SignedType>.VerificationError)
    case verified(SignedType)

    /// Why StoreKit could not verify a signed value on the device: every case Apple defines.
    public enum VerificationError: Error, Sendable {
        case revokedCertificate
        case invalidCertificateChain
        case invalidDeviceVerification
        case invalidEncoding
        case invalidSignature
        case missingRequiredProperties
    }

    /// The value, verified or not.
    public var unsafePayloadValue: SignedType {
        switch self {
        case .unverified(let value, _), .verified(let value): value
        }
    }

    /// The value if verified; otherwise throws the verification error.
    public var payloadValue: SignedType {
        get throws {
            switch self {
            case .verified(let value): return value
            case .unverified(_, let error): throw error
            }
        }
    }
}

extension VerificationResult: Sendable where SignedType: Sendable {}

extension VerificationResult where SignedType == Transaction {
    /// The signed transaction as Apple issued it.
    public var jwsRepresentation: String { unsafePayloadValue.jws }
}
