import Foundation

/// What one `support` operator may give alone in goodwill credits, per currency: at most `perGrant` in one credit
/// and `perDay` in the last 24 hours (their own credits, not the ones a second operator approved). An operator's own
/// limits in the ledger replace the configuration's (`console.grantLimit`, `console.grantLimitPerDay`). An `admin`
/// is not limited (but by `console.goodwillLimit`, which bounds every goodwill credit).
///
/// The rule is pure: each store reads what the requester gave in the day and records the grant in one database
/// transaction, under a lock on the requester's day (`LedgerStore.recordConsoleGrant(_:within:)`), so that grants
/// asked at the same moment, on one replica or several, never give together more than the day's limit.
public struct GrantLimits: Sendable, Hashable {
    public var perGrant: Int64
    public var perDay: Int64

    public init(perGrant: Int64, perDay: Int64) {
        self.perGrant = perGrant
        self.perDay = perDay
    }

    /// How far back a requester's own credits count towards `perDay`.
    public static let day: TimeInterval = 86_400

    /// `person`'s limits: their own where the ledger has them, else these.
    public func of(_ person: ConsoleOperator?) -> GrantLimits {
        GrantLimits(perGrant: person?.grantLimit ?? perGrant, perDay: person?.grantLimitPerDay ?? perDay)
    }

    /// Whether a credit of `amount` fits, `given` already given alone today (a sum past `Int64` never fits).
    public func allows(_ amount: Int64, given: Int64) -> Bool {
        let (total, overflow) = given.addingReportingOverflow(amount)
        return amount <= perGrant && !overflow && total <= perDay
    }

    /// `grant` as it is recorded when its requester already gave `given` alone in its currency within the day before
    /// it: `granted` when it fits these limits, else `pending` (it waits for a second operator).
    public func decide(_ grant: ConsoleGrant, given: Int64) -> ConsoleGrant {
        var decided = grant
        decided.state = allows(grant.amount, given: given) ? .granted : .pending
        return decided
    }
}
