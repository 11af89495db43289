/// A failed simulator request. Compare by `code`; `AppStoreSimulatorHTTP` answers it as
/// `{"error": {"code", "message"}}` with the code's HTTP status.
public struct SimulatorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable failure code, spelled in snake case on the wire.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let description: String
        /// The request cannot be understood (a body that does not decode, a missing field).
        public static let invalidRequest = Code(description: "invalid_request")
        /// No such transaction, device or record.
        public static let notFound = Code(description: "not_found")
        /// The request contradicts the simulator's state (refunding a refunded transaction).
        public static let conflict = Code(description: "conflict")
        /// The simulator failed (signing, writing its journal).
        public static let `internal` = Code(description: "internal")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
