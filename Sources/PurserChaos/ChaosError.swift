/// Why a chaos run could not start or finish (not an invariant violation: those are in the report).
public struct ChaosError: Error, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let invalidConfiguration = Code(rawValue: "invalid_configuration")
        public static let setupFailed = Code(rawValue: "setup_failed")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
