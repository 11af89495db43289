import AppStoreVerification
import Foundation
import PurserCore

extension SimulatedAppStore {
    /// Sends notifications to `url` through `transport` from now on (Purser's `/v1/appstore/notifications`).
    public func deliverNotifications(
        to url: URL, transport: any AppStoreHTTPTransport,
        schedule: NotificationRetrySchedule = .init()
    ) {
        notificationTarget = (url, transport)
        notificationSchedule = schedule
    }

    /// Loses the next `count` delivery attempts (Apple's message never arrives; it is retried on schedule).
    public func loseNotifications(_ count: Int) { notificationsToLose += count }

    /// Holds every notification back until resumed (a long outage between Apple and the server).
    public func pauseNotifications(_ paused: Bool) { notificationsPaused = paused }

    /// Every notification, oldest first, for Get Notification History and tests.
    public func notificationHistory() throws(SimulatorError) -> [SentNotification] {
        var all: [SentNotification] = []
        for entry in notificationLog { all.append(try signed(entry)) }
        return all
    }

    /// `entry` with its signed payload, rebuilt (`LoggedNotification`).
    func signed(_ entry: LoggedNotification) throws(SimulatorError) -> SentNotification {
        do {
            return try entry.signed(by: signer)
        } catch {
            throw SimulatorError(.internal, "signing failed: \(error)")
        }
    }

    /// One page of Get Notification History without copying the log (its payloads rebuilt by the caller, off this
    /// actor: `LoggedNotification.signed(by:)`): up to `limit` notifications from log position
    /// `position` on that were created by `end` and that `matches` accepts, oldest first, and the log position of the
    /// next such notification (nil when there is none). The log is in the order notifications were created, so the
    /// scan stops at the first one created after `end`. Nil when `position` is not a position of the log.
    func notificationHistoryPage(
        from position: Int, limit: Int, through end: Date, where matches: (SentNotification) -> Bool
    ) -> (page: [LoggedNotification], next: Int?)? {
        guard position >= 0, position <= notificationLog.count else { return nil }
        var page: [LoggedNotification] = []
        var index = position
        func more() -> Bool { index < notificationLog.count && notificationLog[index].sent.createdAt <= end }
        while more(), page.count < limit {
            if matches(notificationLog[index].sent) { page.append(notificationLog[index]) }
            index += 1
        }
        while more(), !matches(notificationLog[index].sent) { index += 1 }
        return (page, more() ? index : nil)
    }

    /// Signs and queues a notification about `transaction`; returns its signed payload.
    @discardableResult
    func enqueueNotification(
        type: String, subtype: String? = nil, for transaction: JWSTransaction,
        signedTransaction: String
    ) throws(SimulatorError) -> String {
        let (claims, signed) = try notification(
            type: type, subtype: subtype, for: transaction,
            signedTransaction: signedTransaction)
        undeliveredNotifications.append(notificationLog.count)
        notificationLog.append(
            LoggedNotification(
                SentNotification(
                    notificationUUID: claims.notificationUUID, notificationType: type, subtype: subtype,
                    transactionId: transaction.transactionId, signedPayload: signed, createdAt: now(), attempts: [],
                    delivered: false, nextAttemptAt: now(), bundleId: transaction.bundleId),
                claims: claims,
                transaction: TransactionState.reusing(record(transaction.transactionId)?.state, for: transaction),
                signedTransaction: signedTransaction))
        return signed
    }

    /// Request a Test Notification: queues a TEST notification and returns its token (its UUID).
    public func sendTestNotification() throws(SimulatorError) -> String {
        let environment = configuration.defaultEnvironment.rawValue
        let payload = JWSNotification(
            notificationType: "TEST", notificationUUID: UUID().uuidString.lowercased(),
            data: .init(
                appAppleId: configuration.appAppleID, bundleId: configuration.defaultBundleID,
                environment: environment, signedTransactionInfo: nil),
            signedDate: now().appStoreMilliseconds)
        let signed = try sign(payload)
        undeliveredNotifications.append(notificationLog.count)
        notificationLog.append(
            LoggedNotification(
                SentNotification(
                    notificationUUID: payload.notificationUUID, notificationType: "TEST", subtype: nil,
                    transactionId: nil, signedPayload: signed, createdAt: now(), attempts: [], delivered: false,
                    nextAttemptAt: now(), bundleId: configuration.defaultBundleID),
                claims: payload, transaction: nil, signedTransaction: nil))
        return payload.notificationUUID
    }

    /// Apple's refund lifecycle and consumption requests, as notifications about an existing transaction.
    public func notify(_ type: String, transactionID: String) throws(SimulatorError) {
        let (transaction, signed) = try self.transaction(transactionID)
        try enqueueNotification(type: type, for: transaction, signedTransaction: signed)
    }

    /// Attempts every notification that is due (or every undelivered one with `force`), oldest first, keeping up to
    /// `concurrency` sends in flight, as Apple's sender does. Stops starting sends when the task is cancelled.
    /// Returns how many were delivered in this call.
    @discardableResult
    public func deliverDueNotifications(force: Bool = false, concurrency: Int = 32) async -> Int {
        guard let target = notificationTarget, !notificationsPaused else { return 0 }
        let due = undeliveredNotifications.filter { index in
            let entry = notificationLog[index].sent
            guard !entry.delivered, !notificationsInFlight.contains(index), let due = entry.nextAttemptAt else {
                return false
            }
            return force || due <= now()
        }
        notificationsInFlight.formUnion(due)
        var delivered = 0
        await withTaskGroup(of: (Int, Int).self) { group in
            var pending = due[...]
            var inFlight = 0
            func startNext() {
                guard let index = pending.popFirst() else { return }
                inFlight += 1
                // Losses are decided here, in order; the sends run side by side.
                guard notificationsToLose == 0 else {
                    notificationsToLose -= 1
                    group.addTask { (index, 0) }
                    return
                }
                let (entry, signer) = (notificationLog[index], signer)
                group.addTask {
                    let payload = (try? entry.signed(by: signer).signedPayload) ?? ""
                    let body = (try? JSONEncoder().encode(["signedPayload": payload])) ?? Data()
                    let request = AppStoreHTTPRequest(
                        method: "POST", url: target.url,
                        headers: ["Content-Type": "application/json"],
                        body: body, timeout: .seconds(10))
                    return (index, (try? await target.transport.send(request))?.status ?? 0)
                }
            }
            while inFlight < max(1, concurrency), !pending.isEmpty { startNext() }
            for await (index, status) in group {
                inFlight -= 1
                if record(attempt: status, on: index) { delivered += 1 }
                if !Task.isCancelled { startNext() }
            }
            notificationsInFlight.subtract(pending)
        }
        undeliveredNotifications.removeAll { notificationLog[$0].sent.delivered }
        return delivered
    }

    /// Records one delivery attempt's HTTP status (0: no answer); returns whether it was delivered.
    private func record(attempt status: Int, on index: Int) -> Bool {
        var updated = notificationLog[index]
        updated.sent.attempts.append(status)
        notificationsInFlight.remove(index)
        if (200..<300).contains(status) {
            updated.sent.delivered = true
            updated.sent.nextAttemptAt = nil
        } else {
            updated.sent.nextAttemptAt = notificationSchedule.delay(beforeRetry: updated.sent.attempts.count)
                .map { now().addingTimeInterval($0) }
        }
        notificationLog[index] = updated
        return updated.sent.delivered
    }
}
