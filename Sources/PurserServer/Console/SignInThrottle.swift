import Foundation
import Synchronization

/// Limits sign-in attempts: after `limit` failures for one operator name or one client address within `window`,
/// further attempts are refused until the window has passed. Kept per process (each replica counts its own).
final class SignInThrottle: Sendable {
    let limit: Int
    let window: TimeInterval
    private let failures = Mutex<[String: [Date]]>([:])

    init(limit: Int = 5, window: TimeInterval = 300) {
        self.limit = limit
        self.window = window
    }

    /// Whether an attempt for these keys (operator name, client address) may be tried now.
    func allows(_ keys: [String], now: Date) -> Bool {
        failures.withLock { table in
            keys.allSatisfy { key in
                let recent = (table[key] ?? []).filter { now.timeIntervalSince($0) < window }
                table[key] = recent.isEmpty ? nil : recent
                return recent.count < limit
            }
        }
    }

    func recordFailure(_ keys: [String], now: Date) {
        failures.withLock { table in
            for key in keys { table[key, default: []].append(now) }
        }
    }

    func recordSuccess(_ keys: [String]) {
        failures.withLock { table in
            for key in keys { table[key] = nil }
        }
    }
}
