import AppStoreVerification
import Foundation
import HTTPTypes
import Logging
import Metrics
import PurserCore
import PurserStorage

/// Decides a client's submission: verify Apple's signature, assess claims and product, then let the ledger settle
/// it in one database transaction. Forged or undecodable input is an `APIError` (4xx) and changes nothing; a
/// genuine transaction always ends in a recorded decision.
public struct SubmissionService: Sendable {
    public let verifier: SignedDataVerifier
    public let claims: ClaimsPolicy
    public let catalog: ProductCatalog
    public let store: any LedgerStore
    private let now: @Sendable () -> Date

    public init(verifier: SignedDataVerifier, claims: ClaimsPolicy, catalog: ProductCatalog, store: any LedgerStore,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.verifier = verifier
        self.claims = claims
        self.catalog = catalog
        self.store = store
        self.now = now
    }

    /// Decides a StoreKit 2 signed transaction submitted by `submitter`.
    public func submit(_ request: SubmitTransactionRequest, by submitter: UserID) async throws -> DecisionResponse {
        guard let jws = request.signedTransaction, !jws.isEmpty else {
            throw APIError(.badRequest, code: "missing_signed_transaction", "signedTransaction is required")
        }
        var orderHint: OrderID?
        if let hint = request.orderId {
            guard let parsed = OrderID(hint) else {
                throw APIError(.badRequest, code: "invalid_order_id", "orderId must be a UUID")
            }
            orderHint = parsed
        }
        let payload: JWSTransaction
        do {
            payload = try await verifier.verifySignature(jws, as: JWSTransaction.self)
        } catch {
            Counter(label: "purser.verification.failures", dimensions: [("code", error.code.description)]).increment()
            throw APIError(error.code == .malformed ? .badRequest : .unprocessableContent,
                           code: error.code.description, error.message)
        }
        let submission = Submission(transaction: payload.appleTransaction(), assessment: assess(payload),
                                    source: .client(submitter), orderHint: orderHint)
        let settlement = try await store.settle(submission, now: now())
        Counter(label: "purser.decisions", dimensions: [("decision", settlement.decision.name)]).increment()
        let ownRecord = settlement.record.flatMap { $0.ownerID == submitter ? $0 : nil }
        return DecisionResponse(transactionId: payload.transactionId, decision: settlement.decision,
                                orderId: ownRecord?.orderID, grants: ownRecord.map(\.grants))
    }

    /// Creditable as a catalog product, or the reason it never will be.
    func assess(_ payload: JWSTransaction) -> Submission.Assessment {
        do {
            try claims.check(payload)
        } catch {
            switch error.code {
            case .wrongEnvironment: return .rejected(.wrongEnvironment(payload.environment ?? "(none)"))
            default: return .rejected(.wrongBundle(payload.bundleId))
            }
        }
        guard let product = catalog.product(payload.productId) else {
            return .rejected(.unknownProduct(payload.productId))
        }
        if let type = payload.type, type != product.type.appleType {
            return .rejected(.productTypeMismatch(product.id, apple: type, catalog: product.type))
        }
        return .creditable(product)
    }
}
