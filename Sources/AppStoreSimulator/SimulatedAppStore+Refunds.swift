import AppStoreVerification
import Foundation
import PurserCore

extension SimulatedAppStore {
    /// Refunds a transaction, wholly or in part, as Apple does: its record gains `revocationDate`,
    /// `revocationReason`, `revocationType` and `revocationPercentage`, and a signed REFUND notification is returned.
    ///
    /// `percentage` is this refund's share of the purchase in milliunits (`nil`: all that is left). Refunds add up:
    /// the signed transaction carries Apple's `revocationPercentage`, the share refunded so far (50% then 30% signs
    /// 80000) and `REFUND_PRORATED`; without a percentage, `REFUND_FULL`. `type` `REFUND_FULL` or `FAMILY_REVOKE`
    /// takes the whole purchase. A transaction refunded wholly cannot be refunded again.
    public func refund(
        transactionID: String, reason: Int = 0, type: RevocationType? = nil, percentage: Int? = nil
    ) throws(SimulatorError) -> (transaction: JWSTransaction, signed: String, notification: String) {
        guard var record = purchase(transactionID: transactionID) else {
            throw SimulatorError(.notFound, "no transaction \(transactionID)")
        }
        var transaction = record.transaction
        let before = transaction.revocationDate == nil ? 0 : (transaction.revocationPercentage ?? RefundRules.whole)
        guard before < RefundRules.whole else {
            throw SimulatorError(.conflict, "transaction \(transactionID) is already refunded")
        }
        if let percentage, !(1...RefundRules.whole).contains(percentage) {
            throw SimulatorError(
                .invalidRequest, "revocationPercentage must be 1...100000 milliunits, not \(percentage)")
        }
        let whole = type?.isWhole == true || percentage == nil
        let total = whole ? RefundRules.whole : min(before + (percentage ?? 0), RefundRules.whole)
        let at = now().appStoreMilliseconds
        transaction.revocationDate = at
        transaction.revocationReason = reason
        transaction.revocationType = type ?? (percentage == nil ? .refundFull : .refundProrated)
        transaction.revocationPercentage = total
        transaction.signedDate = at
        record.transaction = transaction
        try replace(record)
        let signed = try sign(transaction)
        let notification = try enqueueNotification(type: "REFUND", for: transaction, signedTransaction: signed)
        return (transaction, signed, notification)
    }

    /// Reverses a refund: the transaction loses its revocation (every partial refund with it, as Apple's payload
    /// no longer carries a percentage), and REFUND_REVERSED is sent.
    public func reverseRefund(transactionID: String) throws(SimulatorError) {
        guard var record = purchase(transactionID: transactionID), record.transaction.revocationDate != nil else {
            throw SimulatorError(.conflict, "transaction \(transactionID) is not refunded")
        }
        record.transaction.revocationDate = nil
        record.transaction.revocationReason = nil
        record.transaction.revocationType = nil
        record.transaction.revocationPercentage = nil
        record.transaction.signedDate = now().appStoreMilliseconds
        try replace(record)
        try notify("REFUND_REVERSED", transactionID: transactionID)
    }
}
