import Foundation
import HTTPTypes
import Hummingbird
import PurserCore

/// Trusts the `X-Purser-User` header as the user id. For local development and demos only: anyone can claim any
/// account. The server announces it loudly at start.
public struct DevelopmentAuthenticator: Authenticator {
    public static let header = HTTPField.Name("X-Purser-User")!

    public init() {}

    public func authenticate(_ headers: HTTPFields) async throws(APIError) -> UserID {
        guard let value = headers[Self.header]?.trimmingCharacters(in: .whitespaces), UserID.isWellFormed(value) else {
            throw APIError(
                .unauthorized, code: "unauthenticated", "development mode: send the user id in X-Purser-User")
        }
        return UserID(value)
    }

    public var announcement: String {
        "DEVELOPMENT AUTHENTICATION IS ON: the X-Purser-User header names the user and is not checked. Never use this in production."
    }
}
