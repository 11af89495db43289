/// Why a webhook was refused, or a secret could not be used. Compare by `code`; `description` never contains a
/// secret or a signature.
public struct WebhookVerificationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable failure code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code as text (`no_matching_signature`, …).
        public let description: String

        /// `webhook-id`, `webhook-timestamp` or `webhook-signature` is missing.
        public static let missingHeaders = Code(description: "missing_headers")
        /// `webhook-timestamp` is not an integer number of seconds.
        public static let invalidTimestamp = Code(description: "invalid_timestamp")
        /// The timestamp is older than the tolerance allows (a replay, or a clock far behind).
        public static let timestampTooOld = Code(description: "timestamp_too_old")
        /// The timestamp is further in the future than the tolerance allows.
        public static let timestampTooNew = Code(description: "timestamp_too_new")
        /// No `v1` signature in `webhook-signature` matches any of the secrets.
        public static let noMatchingSignature = Code(description: "no_matching_signature")
        /// The body is not a Purser event.
        public static let malformedBody = Code(description: "malformed_body")
        /// A secret that is not `whsec_` and base64 of 24 to 64 bytes.
        public static let invalidSecret = Code(description: "invalid_secret")
    }

    /// What failed.
    public var code: Code
    /// What failed, for logs.
    public var message: String

    /// An error with `code` and `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The code and the message.
    public var description: String { "\(code): \(message)" }

    /// Equal when the codes are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
