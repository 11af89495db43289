import Foundation

extension ServerConfiguration {
    /// Every problem that would stop `serve` from starting with this configuration, each naming its key or file:
    /// what `resolve(catalogs:)` throws, found without opening the ledger or calling anyone. Empty when it would
    /// start (as far as a file can tell: ports and the database itself are tried only by `serve`).
    public func problems() -> [String] {
        do {
            _ = try resolve()
            return []
        } catch {
            return error.problems
        }
    }

    /// The configuration in effect, as JSON with sorted keys: the defaults, the file, the environment and the flags
    /// merged, every secret that is set shown as `<redacted>`.
    public func effectiveJSON() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let object = try JSONSerialization.jsonObject(with: try encoder.encode(self))
        let redacted = Self.redacting(object, path: [])
        let data = try JSONSerialization.data(
            withJSONObject: redacted, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    /// `value` with the value of every secret key (`isSecretKey`) replaced; an array's elements are keyed by index,
    /// as the file provider reads them (`webhooks.endpoints.0.secrets`).
    static func redacting(_ value: Any, path: [String]) -> Any {
        if let object = value as? [String: Any] {
            var result: [String: Any] = [:]
            for (key, child) in object {
                let childPath = path + [key]
                result[key] =
                    isSecretKey(childPath.joined(separator: ".")) ? "<redacted>" : redacting(child, path: childPath)
            }
            return result
        }
        if let array = value as? [Any] {
            return array.enumerated().map { redacting($0.element, path: path + [String($0.offset)]) }
        }
        return value
    }
}
