/// A value that holds secrets and describes itself field by field, as Swift would, with its secret fields
/// redacted: a log line, an error or a service group's debug output that prints it never shows a secret.
/// A secret that is unset still reads `nil`, so the description stays true about what is configured.
public protocol SecretRedacting: CustomStringConvertible, CustomDebugStringConvertible {
    /// The stored properties whose values are secrets.
    static var secretFields: Set<String> { get }
}

extension SecretRedacting {
    public var description: String {
        let fields = Mirror(reflecting: self).children.map { child in
            let label = child.label ?? "_"
            guard Self.secretFields.contains(label) else { return "\(label): \(String(reflecting: child.value))" }
            let value = Mirror(reflecting: child.value)
            let unset = value.displayStyle == .optional && value.children.isEmpty
            return "\(label): \(unset ? "nil" : "<redacted>")"
        }
        return "\(Self.self)(\(fields.joined(separator: ", ")))"
    }

    public var debugDescription: String { description }
}
