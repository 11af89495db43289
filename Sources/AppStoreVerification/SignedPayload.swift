/// A payload Apple signs as a JWS. Its `signedDate` is the moment the chain must have been valid.
public protocol SignedPayload: Decodable, Sendable {
    var signedDate: Int64? { get }
}

extension JWSTransaction: SignedPayload {}
extension JWSNotification: SignedPayload {}

/// Either kind of signed payload, for tools that accept both and tell them apart by their contents.
public enum VerifiedPayload: Sendable, Hashable {
    case transaction(JWSTransaction)
    case notification(VerifiedNotification)
}
