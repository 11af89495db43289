/// Why a genuine transaction is definitively refused. `code` is stable and part of the API; `message` is for people.
public struct RejectionReason: Hashable, Sendable, Codable {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// The refusals support may override with an audited grant: a product the catalog holds, which Apple signed with
    /// another type (the catalog or the App Store Connect entry was wrong). Another app's, another environment's or an
    /// unknown product's transaction is never credited.
    public static let overridable: Set<String> = ["product_type_mismatch"]

    public static func unknownProduct(_ id: String) -> Self {
        .init(code: "unknown_product", message: "product \(id.echoed) is not in the catalog")
    }
    public static func productTypeMismatch(_ id: String, apple: String, catalog: ProductDefinition.Kind) -> Self {
        .init(
            code: "product_type_mismatch",
            message: "product \(id.echoed) is \(apple.echoed) at Apple but \(catalog.rawValue) in the catalog")
    }
    public static func wrongBundle(_ bundle: String) -> Self {
        .init(code: "wrong_bundle", message: "the transaction belongs to bundle \(bundle.echoed), not this app")
    }
    public static func wrongEnvironment(_ environment: String) -> Self {
        .init(
            code: "wrong_environment",
            message: "transactions from the \(environment.echoed) environment are not accepted here"
        )
    }
    public static func wrongApp(_ appAppleID: String) -> Self {
        .init(code: "wrong_app", message: "the notification belongs to app \(appAppleID), not this app")
    }
}
