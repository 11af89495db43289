import Foundation

/// A Notifications V2 message the simulator sent (or still tries to send), kept for Get Notification History.
public struct SentNotification: Codable, Sendable, Hashable {
    public var notificationUUID: String
    public var notificationType: String
    public var subtype: String?
    public var transactionId: String?
    public var signedPayload: String
    public var createdAt: Date
    /// Attempts so far, with their HTTP status (0 when nothing answered or the message was lost).
    public var attempts: [Int]
    public var delivered: Bool
    /// When the next retry is due; `nil` once delivered or given up.
    public var nextAttemptAt: Date?
    /// The app it is about: Get Notification History answers each app (the token's `bid`) only its own.
    public var bundleId: String? = nil
}

/// Apple retries an undelivered notification 1, 12, 24, 48 and 72 hours after the previous attempt; the simulator
/// keeps that shape but compresses it by `scale` (by default an hour lasts a second).
public struct NotificationRetrySchedule: Sendable, Hashable {
    public static let appleHours: [Double] = [1, 12, 24, 48, 72]
    public var secondsPerHour: Double

    public init(secondsPerHour: Double = 1) {
        self.secondsPerHour = secondsPerHour
    }

    /// The delay before retry number `retry` (1-based), or `nil` when Apple would give up.
    public func delay(beforeRetry retry: Int) -> TimeInterval? {
        guard retry >= 1, retry <= Self.appleHours.count else { return nil }
        return Self.appleHours[retry - 1] * secondsPerHour
    }
}
