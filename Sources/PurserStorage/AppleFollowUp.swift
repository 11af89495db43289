import Foundation
import PurserCore

/// What Purser still owes Apple about one credited transaction: Finish Transaction (`finish`), Set App Account Token
/// (`appAccountToken`), or both. `LedgerStore.appleFollowUps` lists them; `recordAppleFollowUp` marks them done.
///
/// A transaction is due to be finished at Apple once it is credited and not finished there yet, and either a source
/// other than the app credited it (a notification, reconciliation, support: no app will finish it), or the app did
/// but the credit is older than the server's `finishing.afterSeconds` (the server cannot see the app finishing; an
/// app that did finished it long before, and finishing twice changes nothing at Apple). Transactions credited before
/// ledger migration 6 have no recorded source and are left alone.
public struct AppleFollowUp: Hashable, Sendable {
    public var transactionID: String
    public var originalTransactionID: String
    public var environment: AppStoreEnvironment
    /// Finish Transaction is owed.
    public var finish: Bool
    /// The token Set App Account Token should write, when one is owed.
    public var appAccountToken: OrderID?

    public init(
        transactionID: String, originalTransactionID: String, environment: AppStoreEnvironment, finish: Bool,
        appAccountToken: OrderID?
    ) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.environment = environment
        self.finish = finish
        self.appAccountToken = appAccountToken
    }

    /// What applying `plan` makes Purser owe Apple: finishing, when a source other than the app credits the
    /// transaction; the plan's token, when it has one. `nil` when nothing.
    public static func owed(by plan: LedgerPlan) -> AppleFollowUp? {
        guard plan.credits, let written = plan.written else { return nil }
        let finish = plan.creditedBy.map { $0 != Submission.Source.clientCategory } ?? false
        guard finish || plan.appAccountTokenForApple != nil else { return nil }
        return AppleFollowUp(
            transactionID: written.transaction.transactionID,
            originalTransactionID: written.transaction.originalTransactionID,
            environment: written.transaction.environment, finish: finish,
            appAccountToken: plan.appAccountTokenForApple)
    }
}
