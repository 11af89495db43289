import Foundation
import Hummingbird
import PurserCore

extension AdminRoutes {
    /// Under `/admin/v1`:
    /// - `POST /wallets/{userId}/holds` `{id, amounts, expiresInSeconds, reason}` → the hold, placed once by `id`
    /// - `POST /holds/{id}/capture` `{amounts?}` → all or part of it spent, the rest released
    /// - `POST /holds/{id}/void` → released
    func addHoldRoutes(to admin: RouterGroup<PurserRequestContext>, endpoints: inout EndpointTable) {
        on(admin, .post, "wallets/{userId}/holds", .walletWrite, endpoints: &endpoints) { request, context in
            let body = try await request.decodeJSON(WalletService.HoldBody.self, context: context)
            return try JSONResponse.make(
                try await wallets.placeHold(
                    body, for: try Self.user(context), cause: try Self.caller(context).walletCause))
        }
        on(admin, .post, "holds/{id}/capture", .walletWrite, endpoints: &endpoints) { request, context in
            // No body (or none declared as JSON) captures all of the hold.
            var amounts: [String: Int64]?
            if request.headers[.contentType] != nil, request.headers[.contentLength] != "0" {
                amounts = try await request.decodeJSON(WalletService.CaptureBody.self, context: context).amounts
            }
            return try JSONResponse.make(
                try await wallets.capture(
                    try Self.holdID(context), amounts: amounts, cause: try Self.caller(context).walletCause))
        }
        on(admin, .post, "holds/{id}/void", .walletWrite, endpoints: &endpoints) { _, context in
            try JSONResponse.make(
                try await wallets.void(try Self.holdID(context), cause: try Self.caller(context).walletCause))
        }
    }

    /// The `id` path parameter, percent-decoded.
    static func holdID(_ context: PurserRequestContext) throws -> String {
        let raw = try context.parameters.require("id")
        return raw.removingPercentEncoding ?? raw
    }
}
