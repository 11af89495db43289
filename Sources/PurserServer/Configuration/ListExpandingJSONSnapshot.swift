import Configuration
import Foundation

/// swift-configuration's `JSONSnapshot`, reading arrays of objects too: before parsing, every array whose elements
/// are all objects becomes an object keyed by index, so `"webhooks": {"endpoints": [{"url": …}]}` reads as the keys
/// `webhooks.endpoints.0.url`, … (`JSONSnapshot` itself refuses such arrays). Arrays of strings, numbers and
/// booleans stay arrays.
struct ListExpandingJSONSnapshot: FileConfigSnapshot {
    typealias ParsingOptions = JSONSnapshot.ParsingOptions

    private let inner: JSONSnapshot

    init(data: RawSpan, providerName: String, parsingOptions: ParsingOptions) throws {
        var bytes = [UInt8](repeating: 0, count: data.byteCount)
        data.withUnsafeBytes { source in bytes.withUnsafeMutableBytes { $0.copyMemory(from: source) } }
        let parsed = try JSONSerialization.jsonObject(with: Data(bytes))
        let expanded = try JSONSerialization.data(withJSONObject: Self.expand(parsed))
        let expandedBytes = [UInt8](expanded)
        inner = try JSONSnapshot(
            data: expandedBytes.span.bytes, providerName: providerName, parsingOptions: parsingOptions)
    }

    var providerName: String { inner.providerName }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        try inner.value(forKey: key, type: type)
    }

    var description: String { inner.description }
    var debugDescription: String { inner.debugDescription }

    /// `value` with every array of objects turned into an object keyed "0", "1", …
    static func expand(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            return object.mapValues(expand)
        }
        if let array = value as? [Any], !array.isEmpty, array.allSatisfy({ $0 is [String: Any] }) {
            return Dictionary(uniqueKeysWithValues: array.enumerated().map { (String($0.offset), expand($0.element)) })
        }
        return value
    }
}
