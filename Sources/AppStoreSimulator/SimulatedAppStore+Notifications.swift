import AppStoreVerification
import Foundation
import PurserCore

extension SimulatedAppStore {
    /// Sends notifications to `url` through `transport` from now on (Purser's `/v1/appstore/notifications`).
    public func deliverNotifications(to url: URL, transport: any AppStoreHTTPTransport,
                                     schedule: NotificationRetrySchedule = .init()) {
        notificationTarget = (url, transport)
        notificationSchedule = schedule
    }

    /// Loses the next `count` delivery attempts (Apple's message never arrives; it is retried on schedule).
    public func loseNotifications(_ count: Int) { notificationsToLose += count }

    /// Holds every notification back until resumed (a long outage between Apple and the server).
    public func pauseNotifications(_ paused: Bool) { notificationsPaused = paused }

    /// Every notification, oldest first, for Get Notification History and tests.
    public func notificationHistory() -> [SentNotification] { notificationLog }

    /// Signs and queues a notification about `transaction`; returns its signed payload.
    @discardableResult
    func enqueueNotification(type: String, subtype: String? = nil, for transaction: JWSTransaction,
                             signedTransaction: String) throws(SimulatorError) -> String {
        let (uuid, signed) = try notification(type: type, subtype: subtype, for: transaction,
                                              signedTransaction: signedTransaction)
        undeliveredNotifications.append(notificationLog.count)
        notificationLog.append(SentNotification(
            notificationUUID: uuid, notificationType: type, subtype: subtype,
            transactionId: transaction.transactionId, signedPayload: signed, createdAt: now(), attempts: [],
            delivered: false, nextAttemptAt: now()))
        return signed
    }

    /// Request a Test Notification: queues a TEST notification and returns its token (its UUID).
    public func sendTestNotification() throws(SimulatorError) -> String {
        let environment = configuration.defaultEnvironment.rawValue
        let payload = JWSNotification(
            notificationType: "TEST", notificationUUID: UUID().uuidString.lowercased(),
            data: .init(appAppleId: configuration.appAppleID, bundleId: configuration.defaultBundleID,
                        environment: environment, signedTransactionInfo: nil),
            signedDate: now().appStoreMilliseconds)
        let signed = try sign(payload)
        undeliveredNotifications.append(notificationLog.count)
        notificationLog.append(SentNotification(
            notificationUUID: payload.notificationUUID, notificationType: "TEST", subtype: nil, transactionId: nil,
            signedPayload: signed, createdAt: now(), attempts: [], delivered: false, nextAttemptAt: now()))
        return payload.notificationUUID
    }

    /// Apple's refund lifecycle and consumption requests, as notifications about an existing transaction.
    public func notify(_ type: String, transactionID: String) throws(SimulatorError) {
        let (transaction, signed) = try self.transaction(transactionID)
        try enqueueNotification(type: type, for: transaction, signedTransaction: signed)
    }

    /// Reverses a refund: the transaction loses its revocation, and REFUND_REVERSED is sent.
    public func reverseRefund(transactionID: String) throws(SimulatorError) {
        guard var record = records[transactionID], record.transaction.revocationDate != nil else {
            throw SimulatorError(.conflict, "transaction \(transactionID) is not refunded")
        }
        record.transaction.revocationDate = nil
        record.transaction.revocationReason = nil
        record.transaction.signedDate = now().appStoreMilliseconds
        try replace(record)
        try notify("REFUND_REVERSED", transactionID: transactionID)
    }

    /// Attempts every notification that is due (or every undelivered one with `force`), oldest first, up to
    /// `concurrency` at a time, as Apple's sender does. Returns how many were delivered in this call.
    @discardableResult
    public func deliverDueNotifications(force: Bool = false, concurrency: Int = 8) async -> Int {
        guard let target = notificationTarget, !notificationsPaused else { return 0 }
        let due = undeliveredNotifications.filter { index in
            let entry = notificationLog[index]
            guard !entry.delivered, let due = entry.nextAttemptAt else { return false }
            return force || due <= now()
        }
        var delivered = 0
        var start = 0
        while start < due.count {
            let batch = due[start..<min(start + max(1, concurrency), due.count)]
            start = batch.endIndex
            // Losses are decided here, in order; the sends run side by side.
            let attempts: [(index: Int, payload: String?)] = batch.map { index in
                guard notificationsToLose == 0 else {
                    notificationsToLose -= 1
                    return (index, nil)
                }
                return (index, notificationLog[index].signedPayload)
            }
            let statuses = await withTaskGroup(of: (Int, Int).self) { group in
                for attempt in attempts {
                    group.addTask {
                        guard let payload = attempt.payload else { return (attempt.index, 0) }
                        let body = (try? JSONEncoder().encode(["signedPayload": payload])) ?? Data()
                        let request = AppStoreHTTPRequest(method: "POST", url: target.url,
                                                          headers: ["Content-Type": "application/json"],
                                                          body: body, timeout: .seconds(10))
                        return (attempt.index, (try? await target.transport.send(request))?.status ?? 0)
                    }
                }
                var statuses: [(Int, Int)] = []
                for await status in group { statuses.append(status) }
                return statuses
            }
            for (index, status) in statuses {
                var updated = notificationLog[index]
                updated.attempts.append(status)
                if (200..<300).contains(status) {
                    updated.delivered = true
                    updated.nextAttemptAt = nil
                    delivered += 1
                } else {
                    updated.nextAttemptAt = notificationSchedule.delay(beforeRetry: updated.attempts.count)
                        .map { now().addingTimeInterval($0) }
                }
                notificationLog[index] = updated
            }
        }
        undeliveredNotifications.removeAll { notificationLog[$0].delivered }
        return delivered
    }
}
