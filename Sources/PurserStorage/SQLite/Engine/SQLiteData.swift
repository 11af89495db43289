/// One SQLite value, bound to a statement or read from a row. The ledger stores money and times as integers and
/// everything else as text, so those are the cases it needs (a real or a blob read back is a corrupt ledger).
enum SQLiteData: Hashable, Sendable {
    case integer(Int)
    case text(String)
    case null

    /// `value` as text, or `NULL` when it is nil.
    static func optionalText(_ value: String?) -> SQLiteData {
        value.map { .text($0) } ?? .null
    }

    /// `value` as an integer, or `NULL` when it is nil.
    static func optionalInteger(_ value: (some BinaryInteger)?) -> SQLiteData {
        value.map { .integer(Int($0)) } ?? .null
    }

    var integer: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }

    var string: String? {
        if case .text(let value) = self { return value }
        return nil
    }
}
