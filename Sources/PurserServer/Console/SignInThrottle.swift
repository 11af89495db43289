import Foundation
import Synchronization

/// Limits failed sign-ins, per operator name and per client address separately: after `nameLimit` failures for one
/// name within `window`, that name waits out the window; after `addressLimit` failures from one address, that
/// address does. The address limit is higher, so one person's typos behind a shared proxy do not lock out the whole
/// team. A correct admin token is never throttled (`ConsoleRoutes.signIn` checks it first). Kept per process (each
/// replica counts its own).
final class SignInThrottle: Sendable {
    let nameLimit: Int
    let addressLimit: Int
    let window: TimeInterval
    private let failures = Mutex<[String: [Date]]>([:])

    init(nameLimit: Int = 5, addressLimit: Int = 50, window: TimeInterval = 300) {
        self.nameLimit = nameLimit
        self.addressLimit = addressLimit
        self.window = window
    }

    /// Whether a sign-in as `name` from `address` may be tried now.
    func allows(name: String, address: String, now: Date) -> Bool {
        failures.withLock { table in
            [(Self.key(name: name), nameLimit), (Self.key(address: address), addressLimit)].allSatisfy { key, limit in
                let recent = (table[key] ?? []).filter { now.timeIntervalSince($0) < window }
                table[key] = recent.isEmpty ? nil : recent
                return recent.count < limit
            }
        }
    }

    func recordFailure(name: String, address: String, now: Date) {
        failures.withLock { table in
            for key in [Self.key(name: name), Self.key(address: address)] { table[key, default: []].append(now) }
        }
    }

    /// A successful sign-in clears the name's failures (the address keeps its count: others may be guessing).
    func recordSuccess(name: String) {
        _ = failures.withLock { $0.removeValue(forKey: Self.key(name: name)) }
    }

    private static func key(name: String) -> String { "operator:" + name }
    private static func key(address: String) -> String { "address:" + address }
}
