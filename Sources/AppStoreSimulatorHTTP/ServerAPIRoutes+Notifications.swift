import AppStoreSimulator
import AppStoreVerification
import Foundation
import Hummingbird

extension ServerAPIRoutes {
    /// Apple's notification endpoints of the App Store Server API:
    /// - `POST /inApps/v1/notifications/history?paginationToken=…` (Get Notification History)
    /// - `POST /inApps/v1/notifications/test` (Request a Test Notification)
    func addNotificationRoutes<Context: RequestContext>(to router: Router<Context>) {
        let api = api
        router.post("inApps/v1/notifications/history") { request, _ in
            let token = request.uri.queryParameters["paginationToken"].map(String.init)
            let body = Data(try await request.body.collect(upTo: 64 * 1024).readableBytesView)
            return await Self.answer { () async throws(AppStoreServerAPIError) in
                try await api.notificationHistory(
                    body: body, paginationToken: token,
                    authorization: request.headers[.authorization])
            }
        }
        router.post("inApps/v1/notifications/test") { request, _ in
            await Self.answer { () async throws(AppStoreServerAPIError) in
                try await api.requestTestNotification(authorization: request.headers[.authorization])
            }
        }
    }
}
