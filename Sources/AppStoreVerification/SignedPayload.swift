/// A payload Apple signs as a JWS. Its `signingDate` is the moment the chain must have been valid.
public protocol SignedPayload: Decodable, Sendable {
    /// Milliseconds since 1970; nil when the payload does not say (the verifier's clock is used then).
    var signingDate: Int64? { get }
    /// The App Store environment the payload says it comes from, as Apple spells it.
    var claimedEnvironment: String? { get }
}

extension JWSTransaction: SignedPayload {
    public var signingDate: Int64? { signedDate }
    public var claimedEnvironment: String? { environment }
}

extension JWSNotification: SignedPayload {
    public var signingDate: Int64? { signedDate }
    public var claimedEnvironment: String? { environment }
}

/// Either kind of signed payload, for tools that accept both and tell them apart by their contents.
public enum VerifiedPayload: Sendable, Hashable {
    case transaction(JWSTransaction)
    case notification(VerifiedNotification)
}
