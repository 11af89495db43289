import Foundation
import PurserStorage

/// What one `support` operator may give alone in goodwill credits, per currency: at most `perGrant` in one credit
/// and `perDay` in the last 24 hours (their own credits, not the ones a second operator approved). An operator's own
/// limits in the ledger replace the configuration's (`console.grantLimit`, `console.grantLimitPerDay`). An `admin`
/// is not limited (but by `console.goodwillLimit`, which bounds every goodwill credit).
struct GrantLimits: Sendable, Hashable {
    var perGrant: Int64
    var perDay: Int64

    /// `person`'s limits: their own where the ledger has them, else these.
    func of(_ person: ConsoleOperator?) -> GrantLimits {
        GrantLimits(perGrant: person?.grantLimit ?? perGrant, perDay: person?.grantLimitPerDay ?? perDay)
    }

    /// Whether a credit of `amount` fits, `given` already given alone today.
    func allows(_ amount: Int64, given: Int64) -> Bool {
        amount <= perGrant && given + amount <= perDay
    }
}
