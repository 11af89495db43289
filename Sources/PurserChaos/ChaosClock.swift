import AppStoreVerification
import Foundation
import Synchronization

/// The run's clock, shared by the server, the App Store simulator and the apps: real time plus an offset the heal
/// phase moves forward (a day later, Apple retries its notifications).
public final class ChaosClock: Sendable {
    private let offset = Mutex<TimeInterval>(0)

    /// How far the heal phase moves the clock at a time: a day, when Apple retries its notifications.
    public static let healStep: TimeInterval = 86_400

    public init() {}

    public func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }

    public func advance(by interval: TimeInterval) { offset.withLock { $0 += interval } }
}
