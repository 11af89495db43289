/// Why a StoreKit 1 app receipt could not be decoded. Compare errors by `code`; `description` is safe to show a
/// client or write to a log (it never quotes the receipt's contents); `debugDescription` adds where it was raised.
public struct ReceiptError: Error, Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// A stable failure code, spelled in snake case on the wire and on the command line.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: String, Hashable, Sendable {
            case invalidBase64 = "invalid_base64"
            case malformed
            case truncated
            case notSignedData = "not_signed_data"
            case tooLarge = "too_large"
            case tooDeep = "too_deep"
            case tooMany = "too_many"
            case missingField = "missing_field"
        }
        fileprivate var base: Base
        fileprivate init(_ base: Base) { self.base = base }

        /// The text is not standard base64 (RFC 4648 §4; whitespace and line breaks are tolerated).
        public static let invalidBase64 = Code(.invalidBase64)
        /// A tag, length or value is not what the receipt's ASN.1 structure allows.
        public static let malformed = Code(.malformed)
        /// The input ends before an element that it announces.
        public static let truncated = Code(.truncated)
        /// Not a PKCS#7 SignedData with attached `data` content.
        public static let notSignedData = Code(.notSignedData)
        /// The input is larger than any receipt (`AppReceiptParser.maxInputBytes`).
        public static let tooLarge = Code(.tooLarge)
        /// Elements nest deeper than `AppReceiptParser.maxDepth`.
        public static let tooDeep = Code(.tooDeep)
        /// More in-app purchases or attributes than `AppReceiptParser.maxElements`.
        public static let tooMany = Code(.tooMany)
        /// No bundle id, or an in-app purchase without a product id or transaction id.
        public static let missingField = Code(.missingField)

        /// The wire spelling, e.g. `not_signed_data`.
        public var description: String { base.rawValue }
    }

    /// What went wrong, for programs.
    public var code: Code
    /// What went wrong, for people; never quotes the receipt.
    public var message: String
    /// Where the error was raised (`#fileID`).
    public var file: String
    /// Where the error was raised.
    public var line: Int

    /// An error with `code` and `message`, recording where it was raised.
    public init(_ code: Code, _ message: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
    }

    public var description: String { "\(code): \(message)" }
    public var debugDescription: String { "ReceiptError(\(code)): \(message) at \(file):\(line)" }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
