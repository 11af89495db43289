import Foundation

extension ServerConfiguration {
    /// A warning when the configuration file `file` holds a secret (`isSecretKey`: `admin.token`, a database
    /// password, a webhook secret, an operator's password hash, …) and its mode lets its group or others read it;
    /// `nil` when it holds none, or only its owner may read it. `purser config check` prints it; it stops nothing.
    public static func exposedSecretsWarning(file: URL) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue, mode & 0o044 != 0,
            let data = try? Data(contentsOf: file), let json = try? JSONSerialization.jsonObject(with: data)
        else { return nil }
        let secrets = secretKeys(in: json, prefix: nil)
        guard !secrets.isEmpty else { return nil }
        return "\(file.path) holds secrets (\(secrets.joined(separator: ", "))) and its group or others may read it "
            + "(mode \(String(mode & 0o777, radix: 8))): make it the server's own (chmod 600 \(file.path)), or move "
            + "the secrets to the environment (PURSER_…)"
    }

    /// The dotted keys of `value` (a parsed JSON file) that hold a non-empty secret, sorted by key; arrays count by
    /// index, as `ListExpandingJSONSnapshot` reads them (`webhooks.endpoints.0.secret`).
    private static func secretKeys(in value: Any, prefix: String?) -> [String] {
        if let prefix, isSecretKey(prefix) {
            let empty = value is NSNull || (value as? String)?.isEmpty == true || (value as? [Any])?.isEmpty == true
            return empty ? [] : [prefix]
        }
        let join = { (key: String) in prefix.map { "\($0).\(key)" } ?? key }
        if let object = value as? [String: Any] {
            return object.keys.sorted().flatMap { secretKeys(in: object[$0] as Any, prefix: join($0)) }
        }
        if let array = value as? [Any] {
            return array.indices.flatMap { secretKeys(in: array[$0], prefix: join(String($0))) }
        }
        return []
    }
}
