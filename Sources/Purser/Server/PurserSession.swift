/// The signed-in user, as the app tells Purser after its own login: the user id the server knows, and how to
/// prove it on each request.
public struct PurserSession: Sendable {
    /// How a request proves who the user is.
    public enum Authorization: Sendable {
        /// `Authorization: Bearer <token>`; the closure is asked before each request, so it may refresh the token.
        case bearer(@Sendable () async throws -> String)
        /// `X-Purser-User: <userID>`, for servers running development authentication only.
        case development
    }

    /// The user's id, as the server knows them (the token's `sub` with JWT authentication).
    public var userID: String
    /// How requests prove it.
    public var authorization: Authorization

    /// A session for `userID`.
    public init(userID: String, authorization: Authorization) {
        self.userID = userID
        self.authorization = authorization
    }

    /// The HTTP headers that authenticate a request.
    func headers() async throws -> [String: String] {
        switch authorization {
        case .bearer(let token): ["Authorization": "Bearer \(try await token())"]
        case .development: ["X-Purser-User": userID]
        }
    }
}
