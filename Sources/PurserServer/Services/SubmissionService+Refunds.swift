import AppStoreVerification
import Foundation
import PurserCore
import PurserStorage

extension SubmissionService {
    /// The refund Apple's signed `payload` reports, under this server's `refunds.allowNegativeBalance`.
    public func revocation(of payload: JWSTransaction, cause: String) -> Revocation {
        revocation(of: payload.appleTransaction(), cause: cause)
    }

    func revocation(of transaction: AppleTransaction, cause: String) -> Revocation {
        Revocation(
            transactionID: transaction.transactionID, date: transaction.revocationDate ?? now(),
            type: transaction.revocationType, percentage: transaction.revocationPercentage, cause: cause,
            allowNegativeBalance: allowNegativeBalance)
    }

    /// One line for a notification's outcome or a log: what a refund or its reversal moved.
    static func describe(_ outcome: RefundOutcome, revoking: Bool) -> String? {
        guard case .applied(let owner, let grants, let shortfall, let share) = outcome else { return nil }
        let amounts = grants.sorted.map { "\($0.currency)\(revoking ? "-" : "+")\($0.amount)" }
        let moved = amounts.isEmpty ? "nothing" : amounts.joined(separator: " ")
        guard revoking else { return "restored \(moved) to \(owner)" }
        let short = shortfall.sorted.map { "\($0.currency)=\($0.amount)" }.joined(separator: ", ")
        return "revoked \(moved) from \(owner) (\(RefundRules.percentText(share)) of the purchase revoked)"
            + (short.isEmpty ? "" : "; shortfall \(short) (balance kept at zero)")
    }
}
