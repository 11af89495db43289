import Foundation

/// What `purser serve --log-format json` writes, read back strictly: every line one JSON object with `time`, `level`
/// and `message` strings, or an error naming the first line that is not, by file and line number.
enum JSONLogLines {
    struct NotJSON: Error, CustomStringConvertible {
        var description: String
    }

    /// Each line of `text` (from `file`) as its keys and values; a value that is not a string is its JSON text.
    /// - Throws: `NotJSON` for the first line that is not such an object (an empty last line ends the text).
    static func parse(_ text: String, file: String) throws -> [[String: String]] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return try lines.enumerated().map { index, line in
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            guard let object, ["time", "level", "message"].allSatisfy({ object[$0] is String }) else {
                throw NotJSON(description: "\(file):\(index + 1) is not a JSON log line: \(line.prefix(300))")
            }
            return object.mapValues { value in
                if let text = value as? String { return text }
                let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
                return data.map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
            }
        }
    }
}
