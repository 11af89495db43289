/// A ledger failure. Compare by `code`; `description` never contains SQL or bound values.
public struct StorageError: Error, Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let description: String
        /// The database could not be opened or migrated, or cannot be reached now (connection refused or lost, the
        /// database gone). Nothing was decided: the caller may retry later (a server answers 503).
        public static let unavailable = Code(description: "storage_unavailable")
        /// An order with this id exists already.
        public static let duplicateOrder = Code(description: "duplicate_order")
        /// The stored data does not decode (a defect or manual tampering).
        public static let corrupt = Code(description: "storage_corrupt")
        /// A query failed.
        public static let queryFailed = Code(description: "storage_query_failed")
        /// The store does not implement the operation (a test double that wraps a real store).
        public static let unsupported = Code(description: "storage_unsupported")
        /// The ledger is open elsewhere (a running server) and the operation needs it closed (a restore).
        public static let inUse = Code(description: "ledger_in_use")
        /// The ledger (a backup being restored) records another app than the one it would serve.
        public static let otherApp = Code(description: "ledger_of_another_app")
        /// The ledger's schema is older than this purser's and the operation does not migrate (`purser ledger check`).
        public static let outdated = Code(description: "ledger_outdated")
        /// A webhook event whose payload retention pruned (`retention.days`): it can no longer be sent again.
        public static let pruned = Code(description: "event_pruned")
        /// An API key with this name exists already (revoked keys keep their names).
        public static let duplicateKey = Code(description: "key_exists")
    }

    public var code: Code
    public var message: String
    public var underlying: String?

    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying.map { String(reflecting: $0) }
    }

    public var description: String { "\(code): \(message)" }
    public var debugDescription: String { "\(description)" + (underlying.map { " (\($0))" } ?? "") }
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
