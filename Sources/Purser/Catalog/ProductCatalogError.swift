/// The product list could not be loaded.
public struct ProductCatalogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable code for logs: the server's error code, or one of the SDK's.
    public var code: String
    /// What went wrong, for logs.
    public var message: String

    /// The code and the message.
    public var description: String { "\(code): \(message)" }

    /// An error with `code` and `message`; public so an app's tests can make one.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}
