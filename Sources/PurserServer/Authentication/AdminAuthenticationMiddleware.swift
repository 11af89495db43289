import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import PurserCore

/// Guards the admin API (support staff): `Authorization: Bearer <admin token>`, its own credential, compared in
/// constant time. The operator's name comes from `X-Purser-Operator` and goes into the audit log.
struct AdminAuthenticationMiddleware: RouterMiddleware {
    typealias Context = PurserRequestContext
    static let operatorHeader = HTTPField.Name("X-Purser-Operator")!
    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer "),
            ConstantTime.equal(String(authorization.dropFirst(7)), token)
        else {
            throw APIError(.unauthorized, code: "unauthenticated", "the admin API needs its bearer token")
        }
        var context = context
        context.user = .init(request.headers[Self.operatorHeader] ?? "admin")
        return try await next(request, context)
    }
}
