/// Every error the HTTP API returns: `{"error": {"code": "...", "message": "..."}}`. `code` is stable.
/// An error response is never a decision: the client keeps the transaction and does not finish it.
public struct APIErrorResponse: Codable, Sendable, Hashable {
    public struct Body: Codable, Sendable, Hashable {
        public var code: String
        public var message: String
    }
    public var error: Body
    public init(code: String, message: String) {
        self.error = Body(code: code, message: message)
    }
}
