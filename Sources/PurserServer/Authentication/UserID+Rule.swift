import PurserCore

extension UserID {
    /// The longest user id Purser takes, in Unicode scalars (as `openapi.yaml`'s `maxLength` counts).
    static let maxLength = 128

    /// Whether `value` is a user id Purser takes from any source (a development header, a JWT's `sub`, the admin
    /// API): 1 to 128 Unicode scalars, not blank. One rule, so every user an authenticator lets in can be looked up,
    /// exported and erased through the admin API.
    static func isWellFormed(_ value: String) -> Bool {
        !value.isBlank && value.schemaLength <= maxLength
    }
}
