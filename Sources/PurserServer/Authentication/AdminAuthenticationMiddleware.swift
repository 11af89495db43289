import Foundation
import HTTPTypes
import Hummingbird
import PurserCore

/// Guards the admin API: `Authorization: Bearer <secret>`, an API key found in the ledger by its secret's hash (so a
/// key made or revoked on one replica holds on every replica at its next request), or the legacy `admin.token`,
/// compared in constant time. An operator's name may come in `X-Purser-Operator` and goes into the audit log.
/// Each route then asks the caller for its scope (`AdminCaller.authorize`).
struct AdminAuthenticationMiddleware: RouterMiddleware {
    typealias Context = PurserRequestContext
    static let operatorHeader = HTTPField.Name("X-Purser-Operator")!
    let legacyToken: String?
    let keys: APIKeyService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer ") else {
            throw Self.unauthenticated
        }
        let secret = String(authorization.dropFirst(7))
        let operatorName = request.headers[Self.operatorHeader].flatMap { $0.isEmpty ? nil : $0 }
        let caller: AdminCaller
        if let legacyToken, ConstantTime.equal(secret, legacyToken) {
            caller = .legacy(operator: operatorName)
        } else if let key = try await keys.usableKey(secret: secret) {
            caller = AdminCaller(key: key, operator: operatorName)
        } else {
            throw Self.unauthenticated
        }
        var context = context
        context.admin = caller
        context.user = UserID(caller.actor)
        return try await next(request, context)
    }

    static let unauthenticated = APIError(
        .unauthorized, code: "unauthenticated", "the admin API needs a valid API key (or admin.token) as bearer token")
}
