import AppStoreVerification
import Foundation
import PurserCore
import PurserStorage

/// Settles "I paid and got nothing": finds a customer's transactions by the order id on Apple's e-mail receipt, shows
/// each one's ledger state, owner and history, and credits a verified, unbound transaction once, with the operator's
/// reason in the audit log.
public struct SupportService: Sendable {
    /// What support staff see about one transaction.
    public struct TransactionView: Codable, Sendable, Hashable {
        public var transactionId: String
        public var productId: String
        public var purchaseDate: Date
        public var environment: String
        /// "charged" or "refunded", as Apple reports it; "unanswered" when Apple did not answer in time, "not found"
        /// when Apple knows no transaction of this app with this id (in both the rest is the ledger's record, and
        /// `appleError` says what went wrong).
        public var apple: String
        /// Why Apple's side is missing, when `apple` is "unanswered" or "not found".
        public var appleError: String?
        /// The ledger's state (`credited`, `unbound`, `rejected`, `revoked`), or `not recorded`.
        public var ledger: String
        public var ownerId: UserID?
        public var orderId: OrderID?
        public var grants: Grants?
        /// Apple's id of the app download the purchase was made from: the same on all of one Apple account's purchases.
        public var appTransactionId: String?
        /// When Purser told Apple the transaction is finished (Finish Transaction), if it did.
        public var finishedAtApple: Date?
        /// The `appAccountToken` Apple signed: the order it names, whether or not the ledger bound it.
        public var appAccountToken: OrderID?
        /// The price Apple signed, in milliunits of `currency`, when Apple answered (the ledger does not keep it).
        public var price: Int64?
        public var currency: String?
        /// Why the ledger refused the transaction, code and sentence, when it did.
        public var rejection: RejectionReason?
        public var audit: [AuditEvent]
        /// The W3C trace id of the request that first settled it, to open in the tracing backend (`tracing.*`
        /// settings); `nil` when it was settled untraced.
        public var traceId: String?
    }

    /// Fetches what Apple knows: the signed transactions of an Apple order id, and one signed transaction by id.
    public struct AppleLookup: Sendable {
        public var transactionsOfOrder: @Sendable (String) async throws -> [String]
        public var transaction: @Sendable (String) async throws -> String
        public init(
            transactionsOfOrder: @escaping @Sendable (String) async throws -> [String],
            transaction: @escaping @Sendable (String) async throws -> String
        ) {
            self.transactionsOfOrder = transactionsOfOrder
            self.transaction = transaction
        }
    }

    let submissions: SubmissionService
    let apple: AppleLookup?

    /// How long a support lookup waits for Apple before it answers from the ledger alone.
    let appleDeadline: Duration

    public init(submissions: SubmissionService, apple: AppleLookup?, appleDeadline: Duration = .seconds(3)) {
        self.submissions = submissions
        self.apple = apple
        self.appleDeadline = appleDeadline
    }

    /// Every transaction of an Apple order id (the "Order ID" on the customer's e-mail receipt).
    public func lookUp(appleOrderID: String) async throws -> [TransactionView] {
        try Self.requireAppleOrderID(appleOrderID)
        guard let apple else { throw Self.notConfigured }
        var views: [TransactionView] = []
        for jws in try await Self.askingApple(
            within: appleDeadline, { try await apple.transactionsOfOrder(appleOrderID) })
        {
            views.append(try await view(of: try await verified(jws)))
        }
        return views
    }

    /// Every transaction the ledger holds of one Apple account in this app, by Apple's `appTransactionId` (on every
    /// signed transaction since 2025, and in the app's `AppTransaction`), oldest first; empty when there are none.
    /// Error: `invalid_transaction_id` (400) for anything but 1 to 64 ASCII letters, digits and dashes.
    public func lookUp(appTransactionID: String) async throws -> [TransactionView] {
        try Self.requireAppTransactionID(appTransactionID)
        var views: [TransactionView] = []
        for record in try await submissions.store.transactions(appTransactionID: appTransactionID) {
            views.append(try await view(of: record.transaction, record: record))
        }
        return views
    }

    /// One transaction, from the ledger and (when configured) from Apple, asked with a deadline of
    /// `appleDeadline`. When Apple does not answer in time (or at all) and the ledger knows the transaction, the
    /// view is the ledger's record with `apple` "unanswered": support is never blind while Apple is down. When Apple
    /// knows no such transaction of this app but the ledger recorded one (a transaction of another bundle, rejected
    /// `wrong_bundle`), the view is the ledger's record, its rejection included, with `apple` "not found".
    public func view(transactionID: String) async throws -> TransactionView {
        try Self.requireAppleTransactionID(transactionID)
        let record = try await submissions.store.transaction(transactionID)
        if let apple {
            do {
                let jws = try await Self.askingApple(within: appleDeadline) {
                    try await apple.transaction(transactionID)
                }
                return try await view(of: try await verified(jws))
            } catch let error as ServiceError where error.code == .appleUnavailable || error.code == .notFound {
                guard let record else { throw error }
                var view = try await view(of: record.transaction, record: record)
                let notFound = error.code == .notFound
                view.apple = notFound ? "not found" : "unanswered"
                view.appleError = notFound ? "Apple has no transaction with this id for this app" : error.message
                return view
            }
        }
        guard let record else {
            throw ServiceError(.notFound, "the ledger has no transaction \(transactionID)")
        }
        return try await view(of: record.transaction, record: record)
    }

    /// Credits `transactionID` to `user` if no order binds it to someone (yet): once, audited with `reason`. Granting
    /// again to the same account answers the same view. A transaction whose `appAccountToken` names another account's
    /// order is credited to that account, and the view names it as the owner. Errors: `reason_required` and `invalid_user_id` (400),
    /// `invalid_transaction_id` (400) and `not_found` (404) from Apple, `already_credited` (409, naming the account
    /// that holds it) and `not_grantable` (409: revoked, or its `appAccountToken` names an order that cannot take it).
    /// With `order`, the user's waiting order for the product, the transaction completes that order as well (the
    /// unbound queue's "Bind to"); an order that is not the user's waiting order for it is `not_grantable`, and a
    /// missing one `not_found`.
    ///
    /// With `override` (a code of `RejectionReason.overridable`, e.g. `product_type_mismatch`) a transaction refused
    /// for that reason is credited by the catalog's product all the same, audited as an override; any other code is
    /// `invalid_override` (400).
    public func grant(
        transactionID: String, to user: UserID, reason: String, operator name: String, order: OrderID? = nil,
        override: String? = nil
    ) async throws -> TransactionView {
        if let override, !RejectionReason.overridable.contains(override) {
            throw ServiceError(
                .invalidOverride,
                "only \(RejectionReason.overridable.sorted().joined(separator: ", ")) can be overridden, not \(override)"
            )
        }
        guard !reason.isBlank else {
            throw ServiceError(.reasonRequired, "a grant needs the operator's reason")
        }
        guard !user.rawValue.isBlank, user.rawValue.schemaLength <= Self.maxUserIDLength else {
            throw ServiceError(.invalidUserID, "userId must be 1 to \(Self.maxUserIDLength) characters and not blank")
        }
        try Self.requireAppleTransactionID(transactionID)
        let source = Submission.Source.support(operator: name, user: user, reason: reason)
        let transaction: AppleTransaction
        let settlement: Settlement
        if let apple {
            let payload = try await verified(try await Self.askingApple { try await apple.transaction(transactionID) })
            transaction = payload.appleTransaction()
            try await requireWaiting(order, of: user, for: transaction)
            settlement = try await submissions.settle(
                payload, source: source, orderHint: order, override: override)
        } else if let record = try await submissions.store.transaction(transactionID) {
            transaction = record.transaction
            try await requireWaiting(order, of: user, for: transaction)
            settlement = try await submissions.settle(
                transaction, claimedEnvironment: transaction.environment.rawValue,
                source: source, orderHint: order, override: override)
        } else {
            throw ServiceError(.notFound, "the ledger has no transaction \(transactionID) and Apple is not configured")
        }
        if case .rejected(let why) = settlement.decision {
            let hint =
                RejectionReason.overridable.contains(why.code)
                ? "; to credit it anyway, grant with override \(why.code)" : ""
            throw ServiceError(.rejected(why), why.message + hint)
        }
        try Self.requireGranted(settlement, transactionID: transactionID, to: user)
        return try await view(of: transaction, record: try await submissions.store.transaction(transactionID))
    }

    private func verified(_ jws: String) async throws -> JWSTransaction {
        do {
            return try await submissions.verifier.verifyTransaction(jws)
        } catch {
            throw ServiceError(.appleAnswerUnverified, "Apple's answer did not verify: \(error)", cause: error)
        }
    }

    private func view(of payload: JWSTransaction) async throws -> TransactionView {
        let transaction = payload.appleTransaction()
        var view = try await view(
            of: transaction, record: try await submissions.store.transaction(transaction.transactionID))
        view.price = payload.price
        view.currency = payload.currency
        return view
    }

    private func view(of transaction: AppleTransaction, record: LedgerTransaction?) async throws -> TransactionView {
        TransactionView(
            transactionId: transaction.transactionID, productId: transaction.productID,
            purchaseDate: transaction.purchaseDate,
            environment: transaction.environment.rawValue,
            apple: transaction.revocationDate == nil ? "charged" : "refunded", appleError: nil,
            ledger: record?.state.rawValue ?? "not recorded", ownerId: record?.ownerID, orderId: record?.orderID,
            grants: record?.grants,
            appTransactionId: transaction.appTransactionID ?? record?.transaction.appTransactionID,
            finishedAtApple: record?.finishedAtApple,
            appAccountToken: transaction.appAccountToken ?? record?.transaction.appAccountToken, price: nil,
            currency: nil, rejection: record?.rejection,
            audit: try await submissions.store.auditTrail(of: transaction.transactionID),
            traceId: try await submissions.store.trace(ofTransaction: transaction.transactionID).flatMap {
                $0.split(separator: "-").dropFirst().first.map(String.init)
            })
    }

    static let notConfigured = ServiceError(
        .appStoreAPINotConfigured,
        "looking up Apple order ids needs App Store Server API credentials")
}
