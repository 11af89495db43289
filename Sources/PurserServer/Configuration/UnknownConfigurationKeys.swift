import Foundation

/// The keys of a configuration file that Purser never read: a typo (`"webhook"` for `"webhooks"`) would otherwise be
/// ignored in silence and the server would start without what it meant to configure. Each is named by its first
/// unknown component, with the nearest known name as a suggestion.
struct UnknownConfigurationKeys {
    /// Every key `ServerConfiguration.init(reader:)` read (`webhooks.endpoints.0.url`, …).
    let known: Set<String>

    /// One message per unknown key in the JSON file `data` (arrays of objects read by index, as the file provider
    /// reads them); empty when every key is known.
    func problems(in data: Data) -> [String] {
        guard let object = try? JSONSerialization.jsonObject(with: data) else { return [] }
        let knownPaths = known.map { $0.split(separator: ".").map(String.init) }
        var unknown: [[String]] = []
        for key in Self.leafKeys(ListExpandingJSONSnapshot.expand(object)).sorted(by: { $0.joined() < $1.joined() }) {
            guard !known.contains(key.joined(separator: ".")) else { continue }
            // The first component at which no key Purser read goes on.
            var length = 1
            while length <= key.count,
                knownPaths.contains(where: {
                    $0.count >= length && Array($0.prefix(length)) == Array(key.prefix(length))
                })
            {
                length += 1
            }
            guard length <= key.count else { continue }  // a known key holding an object: the reader reported it
            let path = Array(key.prefix(length))
            if !unknown.contains(path) { unknown.append(path) }
        }
        return unknown.map { path in
            let siblings = Set(
                knownPaths.filter { $0.count >= path.count && Array($0.prefix(path.count - 1)) == path.dropLast() }
                    .map { $0[path.count - 1] })
            let name = path.joined(separator: ".")
            guard let nearest = Self.nearest(to: path[path.count - 1], among: siblings) else {
                return "unknown configuration key \(name)"
            }
            let suggestion = (path.dropLast() + [nearest]).joined(separator: ".")
            return "unknown configuration key \(name) (did you mean \(suggestion)?)"
        }
    }

    /// Every leaf key of `value` as its components; an object's keys nest, anything else is a leaf.
    static func leafKeys(_ value: Any, prefix: [String] = []) -> [[String]] {
        guard let object = value as? [String: Any] else { return prefix.isEmpty ? [] : [prefix] }
        return object.flatMap { leafKeys($0.value, prefix: prefix + [$0.key]) }
    }

    /// The known name closest to `name` by edit distance, when it is close enough to be a typo.
    static func nearest(to name: String, among names: Set<String>) -> String? {
        let scored = names.map { ($0, distance(name.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }) else { return nil }
        return best.1 <= max(2, name.count / 3) ? best.0 : nil
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }
}
