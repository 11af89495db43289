import Foundation
import Metrics
import PurserCore

extension NotificationService {
    /// A notification seen for the first time: how long after Apple signed it it arrived, and when the last one did
    /// (notifications that stop arriving are money stuck at Apple).
    static func recordIntake(_ record: NotificationRecord) {
        if let signed = record.signedDate {
            Timer(label: PurserMetrics.Name.notificationIntakeLag, preferredDisplayUnit: .seconds)
                .recordNanoseconds(Int64(max(0, record.receivedAt.timeIntervalSince(signed)) * 1_000_000_000))
        }
        Gauge(label: PurserMetrics.Name.notificationLastReceived).record(record.receivedAt.timeIntervalSince1970)
    }

    /// Why a genuine notification was acknowledged and ignored: its bundle is served by no app of this Purser.
    static let unknownBundle = "unknown_bundle"

    /// A genuine notification acknowledged and ignored, by `reason`.
    static func recordIgnored(reason: String) {
        Counter(label: PurserMetrics.Name.notificationsIgnored, dimensions: [("reason", reason)]).increment()
    }
}
