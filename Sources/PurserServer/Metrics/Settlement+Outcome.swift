import PurserCore
import PurserStorage

extension Settlement {
    /// What happened, in the decision's words, for metrics and logs. A decision answers its submitter, and a source
    /// without one (a notification, reconciliation, support) is nobody's account, so its credits would all read
    /// `deliveredToOtherAccount`: for those, a credit made now is `delivered` and a repeat `alreadyDelivered`.
    /// A client's own decision is told as it was answered.
    func outcome(for source: Submission.Source) -> String {
        guard source.submitter == nil, decision == .deliveredToOtherAccount else { return decision.name }
        return creditedNow ? Decision.delivered.name : Decision.alreadyDelivered.name
    }
}
