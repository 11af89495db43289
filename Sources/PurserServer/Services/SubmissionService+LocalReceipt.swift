import AppStoreVerification
import Foundation
import PurserCore

extension SubmissionService {
    /// StoreKit 1 receipts checked without trusting `verifyReceipt` alone (`receipts.verification` `local` or
    /// `local-then-verifyReceipt`): the receipt's signature with `verifier`, then each transaction confirmed with
    /// Get Transaction Info on `serverAPI` (`sandboxServerAPI` when production does not know it), or, without
    /// `serverAPI`, by `verifyReceipt`.
    public struct LocalReceiptCheck: Sendable {
        public var verifier: AppReceiptVerifier
        public var serverAPI: AppStoreServerAPIClient?
        public var sandboxServerAPI: AppStoreServerAPIClient?

        public init(
            verifier: AppReceiptVerifier, serverAPI: AppStoreServerAPIClient?,
            sandboxServerAPI: AppStoreServerAPIClient? = nil
        ) {
            self.verifier = verifier
            self.serverAPI = serverAPI
            self.sandboxServerAPI = sandboxServerAPI
        }
    }

    /// What Get Transaction Info said about one transaction of a receipt.
    enum Confirmation {
        /// Apple's signed, verified record of it.
        case confirmed(JWSTransaction)
        /// No answer to act on now; the client keeps the transaction and submits again later.
        case pending(PendingReason)
    }

    /// Every transaction of a receipt whose signature held, confirmed with the App Store Server API and settled as a
    /// StoreKit 2 transaction would be; the named one first. `appTransactionID` (from the app's signed app
    /// transaction) is given to those Apple's record leaves without one.
    func confirmLocally(
        _ receipt: AppReceipt, with check: LocalReceiptCheck, named: String?, orderHint: OrderID?,
        appTransactionID: String?, by submitter: UserID
    ) async throws -> DecisionResponse {
        var decisions: [DecisionResponse] = []
        let entries = Self.settlementOrder(receipt.inAppPurchases, named: named, id: \.transactionId) {
            $0.purchaseDate?.appStoreMilliseconds ?? 0
        }
        if let bundle = claims.bundleID, receipt.bundleId != bundle {
            // Apple signed the receipt, for another app: its transactions are recorded as that, without asking Apple.
            for entry in entries {
                let settlement = try await settle(
                    Self.appleTransaction(entry, of: receipt),
                    claimedEnvironment: Self.environment(of: receipt).rawValue,
                    source: .client(submitter))
                decisions.append(answer(settlement, transactionID: entry.transactionId, to: submitter))
            }
            return Self.combined(decisions, named: named)
        }
        for entry in entries {
            switch try await confirm(entry.transactionId, with: check) {
            case .confirmed(let payload):
                let hint = named == nil || entry.transactionId == named ? orderHint : nil
                var transaction = payload.appleTransaction()
                transaction.appTransactionID = transaction.appTransactionID ?? appTransactionID
                let settlement = try await settle(
                    transaction, claimedEnvironment: payload.environment, source: .client(submitter),
                    orderHint: hint)
                decisions.append(answer(settlement, transactionID: payload.transactionId, to: submitter))
            case .pending(let reason):
                decisions.append(DecisionResponse(transactionId: entry.transactionId, decision: .pending(reason)))
            }
        }
        return Self.combined(decisions, named: named)
    }

    /// The environment a verified receipt was issued in: `Production`, or the sandbox for anything else.
    static func environment(of receipt: AppReceipt) -> AppStoreEnvironment {
        receipt.environment == "Production" ? .production : .sandbox
    }

    /// A transaction as a verified receipt states it (for recording one Purser will never credit).
    static func appleTransaction(_ entry: InAppPurchaseReceipt, of receipt: AppReceipt) -> AppleTransaction {
        AppleTransaction(
            transactionID: entry.transactionId,
            originalTransactionID: entry.originalTransactionId ?? entry.transactionId,
            bundleID: receipt.bundleId, productID: entry.productId, type: nil, quantity: max(entry.quantity, 1),
            purchaseDate: entry.purchaseDate ?? Date(timeIntervalSince1970: 0), appAccountToken: nil,
            environment: environment(of: receipt), revocationDate: entry.cancellationDate)
    }

    /// Get Transaction Info for `id` (production, then the sandbox host when production does not know it), its
    /// signed answer verified as a client's StoreKit 2 transaction is.
    func confirm(_ id: String, with check: LocalReceiptCheck) async throws -> Confirmation {
        for api in [check.serverAPI, check.sandboxServerAPI].compactMap({ $0 }) {
            let info: AppStoreServerAPI.TransactionInfoResponse
            do {
                info = try await api.getTransactionInfo(transactionID: id)
            } catch let error as AppStoreServerAPIError {
                if error.code == .transactionIdNotFound { continue }
                return .pending(Self.pendingReason(for: error, transactionID: id))
            }
            guard
                let payload = try? await verifier.verifySignature(info.signedTransactionInfo, as: JWSTransaction.self),
                payload.transactionId == id
            else {
                return .pending(
                    PendingReason(
                        code: "apple_bad_response",
                        message: "Get Transaction Info's answer for \(id) did not verify as that transaction"))
            }
            return .confirmed(payload)
        }
        return .pending(
            PendingReason(
                code: "apple_unavailable",
                message: "the App Store Server API does not know transaction \(id) (yet); submit again later"))
    }

    static func pendingReason(for error: AppStoreServerAPIError, transactionID id: String) -> PendingReason {
        switch error.code {
        case .serverUnavailable where error.httpStatus == nil:
            PendingReason(code: "apple_unreachable", message: "no answer from the App Store Server API about \(id)")
        case .unexpectedResponse:
            PendingReason(code: "apple_bad_response", message: "the App Store Server API's answer does not decode")
        default:
            PendingReason(
                code: "apple_unavailable", message: "the App Store Server API cannot confirm \(id) now: \(error.code)")
        }
    }
}
