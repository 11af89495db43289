import AppStoreVerification
import Foundation
import PurserCore

extension SubmissionService {
    /// Decides a StoreKit 1 app receipt: `verifyReceipt` confirms it, then every transaction in it is settled on its
    /// own (so none is credited twice and none is skipped because it was not `in_app[0]`). The client's `orderId`
    /// counts for the transaction it names; `finish` at the top refers to that transaction.
    func submit(receipt base64: String, named: String?, orderHint: OrderID?, by submitter: UserID) async throws
        -> DecisionResponse
    {
        do {
            _ = try AppReceiptParser.parse(base64: base64)
        } catch {
            throw ServiceError(.malformedReceipt, "the receipt does not decode: \(error)", cause: error)
        }
        switch await receipts.verify(receipt: base64) {
        case .retryLater(let reason, let detail):
            var answer = DecisionResponse(
                transactionId: named, decision: .pending(PendingReason(code: reason, message: detail)))
            answer.transactions = []
            return answer
        case .rejected(let status):
            throw ServiceError(.receiptRejected, "Apple rejected the receipt: status \(status)")
        case .verified(let receipt, let environment):
            var decisions: [DecisionResponse] = []
            for entry in Self.settlementOrder(receipt.inApp, named: named) {
                let transaction = entry.appleTransaction(bundleID: receipt.bundleId, environment: environment)
                let hint = named == nil || entry.transactionId == named ? orderHint : nil
                let settlement = try await settle(
                    transaction, claimedEnvironment: environment.rawValue,
                    source: .client(submitter), orderHint: hint)
                decisions.append(answer(settlement, transactionID: transaction.transactionID, to: submitter))
            }
            var answer: DecisionResponse
            if let named {
                answer =
                    decisions.first { $0.transactionId == named }
                    ?? DecisionResponse(transactionId: named, decision: .pending(.notInReceipt))
            } else if decisions.count == 1 {
                answer = decisions[0]
            } else {
                answer = DecisionResponse(transactionId: nil, decision: .pending(.noTransactionNamed))
            }
            answer.transactions = decisions
            return answer
        }
    }

    /// The named transaction first, then the others oldest first (the order the journal fallback matches in).
    static func settlementOrder(_ entries: [VerifyReceiptResponse.InApp], named: String?) -> [VerifyReceiptResponse
        .InApp]
    {
        let sorted = entries.enumerated().sorted { lhs, rhs in
            let left = (
                lhs.element.transactionId == named ? 0 : 1, Int64(lhs.element.purchaseDateMs ?? "") ?? 0, lhs.offset
            )
            let right = (
                rhs.element.transactionId == named ? 0 : 1, Int64(rhs.element.purchaseDateMs ?? "") ?? 0, rhs.offset
            )
            return left < right
        }
        return sorted.map(\.element)
    }
}
