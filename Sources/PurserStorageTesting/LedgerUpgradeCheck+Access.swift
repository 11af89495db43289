import Foundation
import PurserCore
import PurserStorage

extension LedgerUpgradeCheck {
    /// The expectations about who may act (migrations 14 and 15): admin API keys, console operators, their failed
    /// sign-ins and their goodwill grants, each read through the store's own reads.
    func checkAccess(_ expectation: LedgerFixture.Expectation) async throws -> String? {
        let a = expectation.arguments
        switch (expectation.kind, a.count) {
        case ("key", 4):
            guard let key = try await store.apiKeys().first(where: { $0.name == a[0] }) else { return "missing" }
            let state = key.revokedAt == nil ? "active" : "revoked"
            let apps = key.apps?.joined(separator: ",") ?? "all"
            let found = try await store.apiKey(secretHash: key.secretHash)?.name
            guard state == a[1], key.scopes.joined(separator: ",") == a[2], apps == a[3], found == key.name else {
                return "\(state) \(key.scopes) \(apps), by its hash \(found ?? "nothing")"
            }
            return nil
        case ("operator", 4...5):
            guard let person = try await store.consoleOperator(a[0]) else { return "missing" }
            let roles = person.roles.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.rawValue)" }
            let limits = person.grantLimit.map { "\($0)/\(person.grantLimitPerDay.map(String.init) ?? "default")" }
            let seen = [
                roles.joined(separator: ","), String(person.generation), person.disabled ? "disabled" : "enabled",
            ]
            guard seen == Array(a[1...3]), limits == (a.count == 5 ? a[4] : nil) else {
                return "reads \(seen) limits \(limits ?? "none")"
            }
            return nil
        case ("failures", 3):
            guard let millis = Double(a[1]) else { return "cannot read" }
            let counts = try await store.signInFailures(keys: [a[0]], since: Date(timeIntervalSince1970: millis / 1000))
            return counts[a[0], default: 0] == Int(a[2]) ? nil : "counts \(counts)"
        case ("grant", 2):
            guard let grant = try await store.consoleGrant(a[0]) else { return "missing" }
            guard grant.state.rawValue == a[1] else { return "is \(grant.state.rawValue)" }
            let waiting = try await store.consoleGrants(app: grant.app, state: .pending, limit: 1_000).map(\.id)
            return waiting.contains(grant.id) == (grant.state == .pending) ? nil : "waiting: \(waiting)"
        case ("given", 5):
            guard let millis = Double(a[3]), let total = Int64(a[4]) else { return "cannot read" }
            let given = try await store.consoleGrantTotal(
                app: a[0], requestedBy: a[1], currency: a[2], since: Date(timeIntervalSince1970: millis / 1000))
            return given == total ? nil : "gave \(given)"
        default:
            return "unknown expectation"
        }
    }

    /// Today's store writes over the old keys, operators and grants: revokes each active key, gives each operator a
    /// new password (their generation goes up by one), approves each waiting grant and credits it as the console
    /// does, and records a grant past each `given` day's total, which must wait for a second operator.
    func accessWritesAfterTheUpgrade() async -> [String] {
        var problems: [String] = []
        for expectation in expectations {
            let a = expectation.arguments
            switch (expectation.kind, a.count) {
            case ("key", 4) where a[1] == "active":
                await attempt("revoking the key \(a[0])", into: &problems) {
                    let key = try await store.revokeAPIKey(named: a[0], by: "upgrade-check", now: now)
                    let found = try await store.apiKey(secretHash: key?.secretHash ?? "")
                    return key?.revokedAt != nil && found?.revokedAt != nil
                }
            case ("operator", 4...5):
                await attempt("a new password for \(a[0])", into: &problems) {
                    let changed = try await store.changeConsoleOperator(
                        a[0], .password("$scrypt$upgrade-check"), cause: "upgrade-check", now: now)
                    return changed?.generation == Int64(a[2]).map { $0 + 1 }
                }
            case ("grant", 2) where a[1] == "pending":
                await attempt("approving the grant \(a[0])", into: &problems) {
                    guard
                        let grant = try await store.decideConsoleGrant(
                            a[0], state: .approved, by: "upgrade-check", now: now)
                    else { return false }
                    let deposit = WalletTransaction.Request(
                        id: "goodwill-\(grant.id)", userID: UserID(grant.userID),
                        amounts: [grant.currency: grant.amount],
                        reason: grant.reason, cause: "support by \(grant.requestedBy), approved by upgrade-check")
                    guard case .applied = try await store.applyWalletTransaction(deposit, now: now) else {
                        return false
                    }
                    return true
                }
            case ("given", 5):
                await attempt("a grant past \(a[1])'s day", into: &problems) {
                    guard let millis = Double(a[3]), let total = Int64(a[4]) else { return false }
                    let grant = ConsoleGrant(
                        id: "upgrade-check-\(a[1])", app: a[0], userID: "upgrade-check", currency: a[2], amount: 1,
                        reason: "after the upgrade", requestedBy: a[1],
                        requestedAt: Date(timeIntervalSince1970: millis / 1000), state: .granted)
                    let recorded = try await store.recordConsoleGrant(
                        grant, within: GrantLimits(perGrant: 1, perDay: total))
                    return recorded.state == .pending
                }
            default:
                continue
            }
        }
        return problems
    }
}
