import AppStoreVerification
import Foundation
import Metrics
import PurserCore

extension SubmissionService {
    /// Decides a StoreKit 1 app receipt, as `receipts.verification` says. Locally: its signature is checked (a
    /// receipt that fails is a 4xx and changes nothing), then every transaction in it is confirmed with Get
    /// Transaction Info and settled as a StoreKit 2 transaction; with `verifyReceipt` (alone, or after the local
    /// check), Apple's answer lists the transactions. Either way every transaction is settled on its own, so none is
    /// credited twice and none is skipped because it was not `in_app[0]`. The client's `orderId` counts for the
    /// transaction it names; `finish` at the top refers to that transaction. A signed `appTransaction` from the same
    /// app and environment gives every transaction without Apple's own `appTransactionId` that id.
    func submit(
        receipt base64: String, named: String?, orderHint: OrderID?, appTransaction: String?, by submitter: UserID
    ) async throws -> DecisionResponse {
        let der: [UInt8]
        do {
            der = try AppReceiptParser.decodeBase64(base64.utf8)
            _ = try AppReceiptParser.parse(der: der)
        } catch {
            throw ServiceError(.malformedReceipt, "the receipt does not decode: \(error)", cause: error)
        }
        if let local = localReceipts {
            let receipt: AppReceipt
            do {
                receipt = try await local.verifier.verify(der: der)
            } catch {
                Counter(label: PurserMetrics.Name.verificationFailures, dimensions: [("code", error.code.description)])
                    .increment()
                throw ServiceError(unverified: error)
            }
            if local.serverAPI != nil {
                let account = await appTransactionID(
                    from: appTransaction, bundleID: receipt.bundleId, environment: Self.environment(of: receipt))
                return try await confirmLocally(
                    receipt, with: local, named: named, orderHint: orderHint, appTransactionID: account, by: submitter)
            }
        }
        return try await confirmWithVerifyReceipt(
            base64, named: named, orderHint: orderHint, appTransaction: appTransaction, by: submitter)
    }

    /// Apple's `verifyReceipt` confirms the receipt and lists its transactions.
    private func confirmWithVerifyReceipt(
        _ base64: String, named: String?, orderHint: OrderID?, appTransaction: String?, by submitter: UserID
    ) async throws -> DecisionResponse {
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
            let entries = Self.settlementOrder(receipt.inApp, named: named, id: \.transactionId) {
                Int64($0.purchaseDateMs ?? "") ?? 0
            }
            let account = await appTransactionID(
                from: appTransaction, bundleID: receipt.bundleId, environment: environment)
            for entry in entries {
                var transaction = entry.appleTransaction(bundleID: receipt.bundleId, environment: environment)
                transaction.appTransactionID = transaction.appTransactionID ?? account
                let hint = named == nil || entry.transactionId == named ? orderHint : nil
                let settlement = try await settle(
                    transaction, claimedEnvironment: environment.rawValue,
                    source: .client(submitter), orderHint: hint)
                decisions.append(answer(settlement, transactionID: transaction.transactionID, to: submitter))
            }
            return Self.combined(decisions, named: named)
        }
    }

    /// The answer for a whole receipt: the named transaction's decision (or `not_in_receipt`), the only one, or
    /// `no_transaction_named`; every transaction's decision in `transactions`.
    static func combined(_ decisions: [DecisionResponse], named: String?) -> DecisionResponse {
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

    /// The named transaction first, then the others oldest first (the order the journal fallback matches in).
    static func settlementOrder<Entry>(
        _ entries: [Entry], named: String?, id: KeyPath<Entry, String>, purchasedAt: (Entry) -> Int64
    ) -> [Entry] {
        let keyed = entries.enumerated().map { (offset, entry) in
            (key: (entry[keyPath: id] == named ? 0 : 1, purchasedAt(entry), offset), entry: entry)
        }
        return keyed.sorted { $0.key < $1.key }.map(\.entry)
    }
}
