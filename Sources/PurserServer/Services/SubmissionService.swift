import AppStoreVerification
import Foundation
import Logging
import Metrics
import PurserCore
import PurserStorage
import Tracing

/// Decides a client's submission: verify it with Apple (the JWS signature; for a receipt its signature and the App
/// Store Server API, or `verifyReceipt`, as `receipts.verification` says), assess claims and product, then let the
/// ledger settle each transaction in its own database transaction. Forged or undecodable input is a `ServiceError`
/// (a 4xx over HTTP) and changes nothing; a genuine transaction always ends in a recorded decision.
public struct SubmissionService: Sendable {
    public let verifier: SignedDataVerifier
    public let claims: ClaimsPolicy
    public let catalog: ProductCatalog
    public let store: any LedgerStore
    /// Apple's `verifyReceipt`, for StoreKit 1 receipts.
    public let receipts: VerifyReceiptClient
    /// The local check of StoreKit 1 receipts; `nil` when `verifyReceipt` alone confirms them.
    public let localReceipts: LocalReceiptCheck?
    /// How old a hinted order may be, before the purchase, and still bind a transaction without a token.
    public let orderHintMaxAge: TimeInterval
    /// Tells Apple what a credit by a notification, reconciliation or support owes it, right after the credit (an
    /// app's own submission never waits for Apple: the periodic job does its part); `nil` without the Server API.
    public let followUps: AppleFollowUps?
    /// `refunds.allowNegativeBalance`: whether a refund may take a balance below zero.
    public let allowNegativeBalance: Bool
    let now: @Sendable () -> Date

    public init(
        verifier: SignedDataVerifier, receipts: VerifyReceiptClient, localReceipts: LocalReceiptCheck? = nil,
        claims: ClaimsPolicy, catalog: ProductCatalog, store: any LedgerStore,
        orderHintMaxAge: TimeInterval = Submission.defaultOrderHintMaxAge, followUps: AppleFollowUps? = nil,
        allowNegativeBalance: Bool = true,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.verifier = verifier
        self.receipts = receipts
        self.localReceipts = localReceipts
        self.claims = claims
        self.catalog = catalog
        self.store = store
        self.orderHintMaxAge = orderHintMaxAge
        self.followUps = followUps
        self.allowNegativeBalance = allowNegativeBalance
        self.now = now
    }

    /// Decides a submission: a StoreKit 2 signed transaction, or a StoreKit 1 receipt.
    public func submit(_ request: SubmitTransactionRequest, by submitter: UserID) async throws -> DecisionResponse {
        var orderHint: OrderID?
        if let hint = request.orderId {
            guard let parsed = OrderID(hint) else {
                throw ServiceError(.invalidOrderID, "orderId must be a UUID")
            }
            orderHint = parsed
        }
        if let jws = request.signedTransaction, !jws.isEmpty {
            return try await submit(signedTransaction: jws, orderHint: orderHint, by: submitter)
        }
        if let receipt = request.receipt, !receipt.isEmpty {
            return try await submit(
                receipt: receipt, named: request.transactionId, orderHint: orderHint,
                appTransaction: request.appTransaction, by: submitter)
        }
        throw ServiceError(.missingTransaction, "send signedTransaction (StoreKit 2) or receipt (StoreKit 1)")
    }

    func submit(signedTransaction jws: String, orderHint: OrderID?, by submitter: UserID) async throws
        -> DecisionResponse
    {
        let verified = await withSpan(PurserTracing.SpanName.verifySignature) { span in
            do throws(VerificationError) {
                return Result<JWSTransaction, VerificationError>.success(
                    try await verifier.verifySignature(jws, as: JWSTransaction.self))
            } catch {
                span.attributes["purser.error.code"] = error.code.description
                return .failure(error)
            }
        }
        let payload: JWSTransaction
        do throws(VerificationError) {
            payload = try verified.get()
        } catch {
            Counter(label: PurserMetrics.Name.verificationFailures, dimensions: [("code", error.code.description)])
                .increment()
            throw ServiceError(unverified: error)
        }
        let settlement = try await settle(payload, source: .client(submitter), orderHint: orderHint)
        return answer(settlement, transactionID: payload.transactionId, to: submitter)
    }

    /// Assesses and settles one signed transaction: the decision path of clients, notifications and reconciliation.
    public func settle(
        _ payload: JWSTransaction, source: Submission.Source, orderHint: OrderID? = nil, override: String? = nil
    ) async throws -> Settlement {
        try await settle(
            payload.appleTransaction(), claimedEnvironment: payload.environment, source: source,
            orderHint: orderHint, override: override)
    }

    /// Assesses `transaction` against the claims and the catalog, then lets the ledger settle it in one database
    /// transaction. `claimedEnvironment` is the environment exactly as Apple stated it.
    /// `override` (support only) is a refusal code of `RejectionReason.overridable` to set aside: the transaction is
    /// assessed by the catalog's type instead of Apple's, and a ledger record refused for it may be credited.
    public func settle(
        _ transaction: AppleTransaction, claimedEnvironment: String?, source: Submission.Source,
        orderHint: OrderID? = nil, override: String? = nil
    ) async throws -> Settlement {
        var assessment = assess(
            bundleID: transaction.bundleID, environment: claimedEnvironment,
            productID: transaction.productID, appleType: transaction.type)
        var overridden: String?
        if let override, RejectionReason.overridable.contains(override) {
            let byCatalog = assess(
                bundleID: transaction.bundleID, environment: claimedEnvironment,
                productID: transaction.productID, appleType: nil)
            if case .creditable = byCatalog {
                assessment = byCatalog
                overridden = override
            }
        }
        let submission = Submission(
            transaction: transaction, assessment: assessment, source: source, orderHint: orderHint,
            orderHintMaxAge: orderHintMaxAge, override: overridden, allowNegativeBalance: allowNegativeBalance)
        let started = ContinuousClock.now
        let settlement = try await withSpan(PurserTracing.SpanName.ledgerSettle) { span in
            span.attributes["db.system.name"] = store.systemName
            span.attributes["purser.transaction_id"] = transaction.transactionID
            var traced = submission
            traced.traceParent = TraceParent.of(span.context)
            let settlement = try await store.settle(traced, now: now())
            span.attributes["purser.decision"] = settlement.outcome(for: source)
            span.attributes["purser.ledger.statements"] = settlement.statements
            span.attributes["purser.ledger.batch_size"] = settlement.batchSize
            return settlement
        }
        Timer(label: PurserMetrics.Name.ledgerWriteDuration, dimensions: [("operation", "settle")])
            .record(duration: ContinuousClock.now - started)
        Counter(label: PurserMetrics.Name.decisions, dimensions: [("decision", settlement.outcome(for: source))])
            .increment()
        if settlement.creditedNow {
            Counter(label: PurserMetrics.Name.credits, dimensions: [("cause", source.category)]).increment()
        }
        if source.submitter == nil, let followUp = settlement.appleFollowUp, let followUps {
            await followUps.perform(followUp)
        }
        return settlement
    }

    /// The decision as `submitter` sees it: the order and grants only when the transaction is theirs.
    func answer(_ settlement: Settlement, transactionID: String, to submitter: UserID) -> DecisionResponse {
        let ownRecord = settlement.record.flatMap { $0.ownerID == submitter ? $0 : nil }
        return DecisionResponse(
            transactionId: transactionID, decision: settlement.decision,
            orderId: ownRecord?.orderID, grants: ownRecord.map(\.grants))
    }

    /// Creditable as a catalog product, or the reason it never will be.
    func assess(bundleID: String, environment: String?, productID: String, appleType: String?) -> Submission.Assessment
    {
        do {
            try claims.check(bundleID: bundleID, environment: environment)
        } catch {
            switch error.code {
            case .wrongEnvironment: return .rejected(.wrongEnvironment(environment ?? "(none)"))
            default: return .rejected(.wrongBundle(bundleID))
            }
        }
        guard let product = catalog.product(productID) else {
            return .rejected(.unknownProduct(productID))
        }
        if let appleType, appleType != product.type.appleType {
            return .rejected(.productTypeMismatch(product.id, apple: appleType, catalog: product.type))
        }
        return .creditable(product)
    }
}
