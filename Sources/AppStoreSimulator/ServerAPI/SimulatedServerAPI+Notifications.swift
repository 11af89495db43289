import AppStoreVerification
import Foundation

extension SimulatedServerAPI {
    /// Get Notification History: the simulator's sent notifications between `startDate` and `endDate`, optionally
    /// one transaction's or only the undelivered ones, 20 per page with an opaque pagination token.
    public func notificationHistory(body: Data, paginationToken: String?, authorization: String?)
        async
        throws(AppStoreServerAPIError) -> AppStoreServerAPI.NotificationHistoryResponse
    {
        let key = try await authorize(authorization)
        guard let request = try? JSONDecoder().decode(AppStoreServerAPI.NotificationHistoryRequest.self, from: body)
        else {
            throw Self.badRequest(.generalBadRequest, "the notification history request does not decode")
        }
        let start = Date(appStoreMilliseconds: request.startDate)
        let end = Date(appStoreMilliseconds: request.endDate)
        let position = paginationToken.map { Int($0) } ?? 0
        let wanted = { (sent: SentNotification) in
            sent.createdAt >= start && (sent.bundleId ?? key.bundleId) == key.bundleId
                && (request.notificationType == nil || request.notificationType == sent.notificationType)
                && (request.transactionId == nil || request.transactionId == sent.transactionId)
                && (request.onlyFailures != true || !sent.delivered)
        }
        guard let position,
            let (entries, next) = await store.notificationHistoryPage(
                from: position, limit: pageSize, through: end, where: wanted)
        else {
            throw Self.badRequest(.invalidPaginationToken, "invalid pagination token")
        }
        let page: [SentNotification]
        do {
            page = try await Self.signed(entries, by: store.signer)
        } catch {
            throw AppStoreServerAPIError(.generalInternal, "An unknown error occurred.", httpStatus: 500)
        }
        let items = page.map { sent in
            AppStoreServerAPI.NotificationHistoryResponseItem(
                signedPayload: sent.signedPayload,
                sendAttempts: sent.attempts.map { status in
                    AppStoreServerAPI.SendAttemptItem(
                        attemptDate: sent.createdAt.appStoreMilliseconds,
                        sendAttemptResult: (200..<300).contains(status)
                            ? "SUCCESS"
                            : status == 0 ? "TIMED_OUT" : "UNSUCCESSFUL_HTTP_RESPONSE_CODE")
                })
        }
        notificationsListed += items.count
        return .init(notificationHistory: items, hasMore: next != nil, paginationToken: next.map(String.init))
    }

    /// The page's notifications with their signed payloads, rebuilt side by side.
    static func signed(_ entries: [LoggedNotification], by signer: JWSSigner) async throws -> [SentNotification] {
        try await withThrowingTaskGroup(of: (Int, SentNotification).self) { group in
            for (index, entry) in entries.enumerated() {
                group.addTask { (index, try entry.signed(by: signer)) }
            }
            var page = [SentNotification?](repeating: nil, count: entries.count)
            for try await (index, sent) in group { page[index] = sent }
            return page.compactMap { $0 }
        }
    }

    /// Request a Test Notification.
    public func requestTestNotification(authorization: String?) async throws(AppStoreServerAPIError)
        -> AppStoreServerAPI.SendTestNotificationResponse
    {
        _ = try await authorize(authorization)
        do {
            return .init(testNotificationToken: try await store.sendTestNotification())
        } catch {
            throw AppStoreServerAPIError(.serverUnavailable, "the simulator could not sign the test notification")
        }
    }
}
