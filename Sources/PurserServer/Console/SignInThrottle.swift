import Foundation
import PurserStorage

/// Limits failed sign-ins, per operator name and per client address separately: after `nameLimit` failures for one
/// name within `window`, that name waits out the window; after `addressLimit` failures from one address, that
/// address does. The address limit is higher, so one person's typos behind a shared proxy do not lock out the whole
/// team. A sign-in with the admin token counts against the address alone (it names no operator): a wrong token is a
/// failure of the address, and an address past its limit waits even with the right token, so the token cannot be
/// guessed at full speed. The failures are rows in the ledger, so every replica counts the same ones: a guesser
/// spread over replicas meets the same limit.
struct SignInThrottle: Sendable {
    let store: any LedgerStore
    var nameLimit = 5
    var addressLimit = 50
    var window: TimeInterval = 300

    /// Whether a sign-in as `name` from `address` may be tried now.
    func allows(name: String, address: String, now: Date) async throws -> Bool {
        let (nameKey, addressKey) = (Self.key(name: name), Self.key(address: address))
        let counts = try await store.signInFailures(
            keys: [nameKey, addressKey], since: now.addingTimeInterval(-window))
        return counts[nameKey, default: 0] < nameLimit && counts[addressKey, default: 0] < addressLimit
    }

    /// Records a failure for the name and the address, and forgets the failures older than the window.
    func recordFailure(name: String, address: String, now: Date) async throws {
        try await store.recordSignInFailure(
            keys: [Self.key(name: name), Self.key(address: address)], at: now,
            forgettingBefore: now.addingTimeInterval(-window))
    }

    /// Whether a sign-in with the admin token from `address` may be tried now.
    func allows(address: String, now: Date) async throws -> Bool {
        let key = Self.key(address: address)
        let counts = try await store.signInFailures(keys: [key], since: now.addingTimeInterval(-window))
        return counts[key, default: 0] < addressLimit
    }

    /// Records a failed sign-in with the admin token: the address's alone.
    func recordFailure(address: String, now: Date) async throws {
        try await store.recordSignInFailure(
            keys: [Self.key(address: address)], at: now, forgettingBefore: now.addingTimeInterval(-window))
    }

    /// A successful sign-in clears the name's failures (the address keeps its count: others may be guessing).
    func recordSuccess(name: String) async throws {
        try await store.clearSignInFailures(key: Self.key(name: name))
    }

    private static func key(name: String) -> String { "operator:" + String(name.prefix(100)) }
    private static func key(address: String) -> String { "address:" + address }
}
