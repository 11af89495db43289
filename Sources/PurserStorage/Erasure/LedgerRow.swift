/// One row of any ledger table, as an export shows it: its table and every column's value.
public struct LedgerRow: Sendable, Hashable, Codable {
    /// A stored value: text, an integer, or nothing.
    public enum Value: Sendable, Hashable, Codable {
        case text(String)
        case integer(Int64)
        case null

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let integer = try? container.decode(Int64.self) {
                self = .integer(integer)
            } else {
                self = .text(try container.decode(String.self))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .integer(let integer): try container.encode(integer)
            case .null: try container.encodeNil()
            }
        }

        /// The text, when it is one.
        public var text: String? {
            if case .text(let text) = self { text } else { nil }
        }
    }

    public var table: String
    public var values: [String: Value]

    public init(table: String, values: [String: Value]) {
        self.table = table
        self.values = values
    }
}
