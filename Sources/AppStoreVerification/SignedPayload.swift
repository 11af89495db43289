/// A payload Apple signs as a JWS. Its `signingDate` is the moment the chain must have been valid.
public protocol SignedPayload: Decodable, Sendable {
    /// Milliseconds since 1970; nil when the payload does not say (the verifier's clock is used then).
    var signingDate: Int64? { get }
}

extension JWSTransaction: SignedPayload {
    public var signingDate: Int64? { signedDate }
}

extension JWSNotification: SignedPayload {
    public var signingDate: Int64? { signedDate }
}

/// Either kind of signed payload, for tools that accept both and tell them apart by their contents.
public enum VerifiedPayload: Sendable, Hashable {
    case transaction(JWSTransaction)
    case notification(VerifiedNotification)
}
