import Foundation
import PurserCore
import Synchronization

/// When to try a failed delivery again: the n-th failed attempt waits `delays[n-1]` plus jitter (up to a fifth
/// more, drawn from a seeded source), and the attempt after the last delay's retry is the last: then the event is
/// dead-lettered. The jitter only lengthens waits, so the schedule's span is a lower bound.
public struct WebhookRetrySchedule: Sendable, Hashable {
    /// Seconds before each retry.
    public var delays: [Double]

    public init(delays: [Double]) {
        self.delays = delays
    }

    /// The specification's example schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. Ten attempts in
    /// all over 75 h 35 min (more than three days) before an event is dead-lettered.
    public static let standard = WebhookRetrySchedule(
        delays: [5, 300, 1_800, 7_200, 18_000, 36_000, 50_400, 72_000, 86_400])

    /// Attempts in all: the first and one per delay.
    public var attempts: Int { delays.count + 1 }

    /// The time of the next attempt after `failures` failed ones (the latest at `now`); `nil` when the schedule is
    /// spent. `jitter` is a fraction in 0..<1.
    public func nextAttempt(afterFailures failures: Int, now: Date, jitter: Double) -> Date? {
        guard failures >= 1, failures <= delays.count else { return nil }
        return now.addingTimeInterval(delays[failures - 1] * (1 + 0.2 * jitter))
    }
}

/// The jitter's random source: seeded for a reproducible run (the chaos harness), or from the system otherwise.
public final class WebhookJitter: Sendable {
    private let generator: Mutex<SeededGenerator>

    public init(seed: UInt64? = nil) {
        generator = Mutex(SeededGenerator(seed: seed ?? UInt64.random(in: .min ... .max)))
    }

    /// A fraction in 0..<1.
    public func next() -> Double { generator.withLock { Double.random(in: 0..<1, using: &$0) } }
}
