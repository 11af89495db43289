/// Why a signed payload from Apple was not accepted. Compare errors by `code`; `description` is safe to show a
/// client or write to a log; `debugDescription` adds where it was raised.
public struct VerificationError: Error, Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// A stable failure code, spelled in snake case on the wire and on the command line.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: String, Hashable, Sendable {
            case malformed
            case badSignature = "bad_signature"
            case untrustedChain = "untrusted_chain"
            case missingAppleOID = "missing_apple_oid"
            case expired
            case wrongBundle = "wrong_bundle"
            case wrongEnvironment = "wrong_environment"
            case wrongApp = "wrong_app"
        }
        fileprivate var base: Base
        fileprivate init(_ base: Base) { self.base = base }

        /// Not a well-formed compact JWS, or its header, certificates or payload cannot be decoded.
        public static let malformed = Code(.malformed)
        /// The ES256 signature does not match `header.payload`.
        public static let badSignature = Code(.badSignature)
        /// `x5c` is not three certificates chaining to a trusted root.
        public static let untrustedChain = Code(.untrustedChain)
        /// The leaf or intermediate lacks Apple's marker extension.
        public static let missingAppleOID = Code(.missingAppleOID)
        /// A certificate of the chain was not valid at the signing time.
        public static let expired = Code(.expired)
        /// Signed by Apple, but for another bundle id.
        public static let wrongBundle = Code(.wrongBundle)
        /// Signed by Apple, but for an environment that is not accepted.
        public static let wrongEnvironment = Code(.wrongEnvironment)
        /// A production notification for another app Apple id.
        public static let wrongApp = Code(.wrongApp)

        /// The wire spelling, e.g. `bad_signature`.
        public var description: String { base.rawValue }

        /// Whether the payload is genuine and only its claims (bundle, environment, app) do not fit this app.
        public var isClaimMismatch: Bool { self == .wrongBundle || self == .wrongEnvironment || self == .wrongApp }
    }

    public var code: Code
    public var message: String
    public var file: String
    public var line: Int

    public init(_ code: Code, _ message: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
    }

    public var description: String { "\(code): \(message)" }
    public var debugDescription: String { "VerificationError(\(code)): \(message) at \(file):\(line)" }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
