import AppStoreVerification
import Foundation
import Logging
import Metrics
import PurserCore
import PurserStorage

/// Hears App Store Server Notifications V2: verifies `signedPayload` and its nested transaction, records the
/// notification once (by `notificationUUID`) before answering, then acts on it. ONE_TIME_CHARGE settles the
/// transaction exactly as a client submission would; REFUND revokes the share Apple refunded (`revocationType`,
/// `revocationPercentage`); REFUND_REVERSED restores what the refunds took; CONSUMPTION_REQUEST is
/// answered by the `ConsumptionResponder`. Every other type, `RESCIND_CONSENT` and types newer than this code
/// included, is recorded and acknowledged (200) and changes nothing else. A notification for a bundle that no app of
/// this Purser serves is acknowledged (200) and ignored: recorded in no ledger, counted as
/// `purser_notifications_ignored_total{reason="unknown_bundle"}`.
public struct NotificationService: Sendable {
    public let submissions: SubmissionService
    public let consumption: ConsumptionResponder?
    private let logger: Logger
    private let now: @Sendable () -> Date

    public init(
        submissions: SubmissionService, consumption: ConsumptionResponder? = nil, logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.submissions = submissions
        self.consumption = consumption
        self.logger = logger
        self.now = now
    }

    /// What the intake did with one notification.
    public struct Outcome: Sendable, Hashable, Codable {
        public var notificationUUID: String
        public var duplicate: Bool
        public var result: String
    }

    /// Verifies, records and acts on one notification; its lines go to `requestLogger` when given (the request's, so
    /// they carry its `request_id`), else to the service's own.
    public func receive(signedPayload: String, logger requestLogger: Logger? = nil) async throws -> Outcome {
        let logger = requestLogger ?? self.logger
        let verified: VerifiedNotification
        do {
            verified = try await submissions.verifier.verifyNotification(signedPayload)
        } catch  where error.code.isClaimMismatch {
            // Genuine, but not for this app: acknowledge so Apple stops, record nothing.
            logger.warning("ignored a notification for another app or environment", metadata: ["reason": "\(error)"])
            return Outcome(notificationUUID: "", duplicate: false, result: "ignored: \(error.code)")
        } catch {
            throw ServiceError(unverified: error)
        }
        let notification = verified.notification
        if let app = submissions.claims.bundleID, let named = notification.bundleId, named != app {
            // Signed by Apple for a bundle no app of this Purser serves (each served bundle is dispatched to its own
            // app): acknowledged so Apple stops sending it, recorded in no ledger, counted.
            Self.recordIgnored(reason: Self.unknownBundle)
            logger.warning(
                "ignored an App Store notification for a bundle this Purser does not serve",
                metadata: [
                    "purser.bundle": "\(named.prefix(255))",
                    "purser.notification": "\(notification.notificationType)",
                ])
            return Outcome(
                notificationUUID: notification.notificationUUID, duplicate: false,
                result: "ignored: \(Self.unknownBundle) \(named.prefix(255))")
        }
        let record = NotificationRecord(
            uuid: notification.notificationUUID, type: notification.notificationType, subtype: notification.subtype,
            transactionID: verified.transaction?.transactionId, environment: notification.environment,
            signedDate: notification.signedDate.map(Date.init(appStoreMilliseconds:)), receivedAt: now())
        let earlier = try await submissions.store.recordNotification(record)
        if earlier == nil { Self.recordIntake(record) }
        if let earlier, earlier.processedAt != nil {
            return Outcome(notificationUUID: record.uuid, duplicate: true, result: earlier.outcome ?? "processed")
        }
        let result = try await act(on: notification, transaction: verified.transaction)
        try await submissions.store.markNotificationProcessed(uuid: record.uuid, outcome: result, at: now())
        var metadata: Logger.Metadata = [
            "purser.notification": "\(notification.notificationType)", "purser.outcome": "\(result)",
        ]
        if let transaction = record.transactionID { metadata["transaction_id"] = "\(transaction)" }
        logger.info("App Store notification", metadata: metadata)
        return Outcome(notificationUUID: record.uuid, duplicate: false, result: result)
    }

    private func act(on notification: JWSNotification, transaction payload: JWSTransaction?) async throws -> String {
        let cause = "notification \(notification.notificationType) \(notification.notificationUUID)"
        guard let payload else { return "recorded (no transaction)" }
        switch notification.notificationType {
        case "ONE_TIME_CHARGE":
            return try await settle(payload, uuid: notification.notificationUUID)
        case "REFUND":
            let revocation = submissions.revocation(of: payload, cause: cause)
            let outcome = try await submissions.store.revoke(revocation, now: now())
            switch outcome {
            case .applied: return SubmissionService.describe(outcome, revoking: true) ?? "revoked"
            case .noted(let what): return "noted: \(what)"
            case .unchanged(let why): return "unchanged: \(why)"
            case .unknownTransaction: return try await settle(payload, uuid: notification.notificationUUID)
            }
        case "REFUND_REVERSED":
            let outcome = try await submissions.store.restore(
                transactionID: payload.transactionId, cause: cause, now: now())
            switch outcome {
            case .applied: return SubmissionService.describe(outcome, revoking: false) ?? "restored"
            case .noted(let what):
                // Unbound again (or no longer refunded): the reversal's signed transaction may bind it now.
                return "noted: \(what); " + (try await settle(payload, uuid: notification.notificationUUID))
            case .unchanged(let why): return "unchanged: \(why)"
            case .unknownTransaction: return try await settle(payload, uuid: notification.notificationUUID)
            }
        case "CONSUMPTION_REQUEST":
            guard let consumption else { return "consumption request not answered (not configured)" }
            return try await consumption.respond(to: payload.transactionId)
        default:
            return "recorded"
        }
    }

    /// The transaction settled as if a client had submitted it, on behalf of the notification.
    private func settle(_ payload: JWSTransaction, uuid: String) async throws -> String {
        let settlement = try await submissions.settle(payload, source: .notification(uuid))
        return "\(settlement.outcome(for: .notification(uuid))) \(settlement.record?.ownerID.map { "to \($0)" } ?? "")"
            .trimmingCharacters(in: .whitespaces)
    }
}
