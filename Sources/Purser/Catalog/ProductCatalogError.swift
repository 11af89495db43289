/// The product list could not be loaded.
public struct ProductCatalogError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: String
    public var message: String

    public var description: String { "\(code): \(message)" }

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}
