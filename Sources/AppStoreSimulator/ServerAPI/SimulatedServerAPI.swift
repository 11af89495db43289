import AppStoreVerification
import Crypto
import Foundation
import JWTKit

/// The App Store Server API of the simulator, over `SimulatedAppStore`'s records: Get Transaction Info, Get
/// Transaction History v2, Look Up Order ID, Get Refund History v2, Send Consumption Information (v1 and v2) and Set
/// App Account Token. `ServerAPIRoutes` serves it over HTTP at Apple's paths.
///
/// - **Keys.** Only registered App Store Connect keys are accepted: every call's bearer JWT must be ES256-signed by
///   the key its `kid` names, with that key's `iss` and `bid`, `aud` `appstoreconnect-v1`, an `exp` in the future
///   and at most 60 minutes after `iat` (or after now, when `iat` is absent, as Apple's own libraries send it).
///   Anything else is HTTP 401. A key sees only transactions of its bundle id.
/// - **Customers.** One simulated device stands for one Apple account: a history holds every transaction of the
///   bundle made on the device of the transaction asked about, in that transaction's environment, finished
///   consumables and refunds included. One base URL answers for both environments.
/// - **Order and revisions.** As Apple does, a history is sorted by the date of each transaction's last change (here
///   its `signedDate`, which a refund moves), then by purchase. A revision is an opaque token naming the last
///   transaction returned, so a later call with the last revision returns what was bought or refunded since.
/// - **Faults.** `injectFaults` makes the next calls answer 429 (with `Retry-After`) or a 5xx, before any check.
/// - Keys, faults and consumption information live in memory only.
public actor SimulatedServerAPI {
    /// An App Store Connect in-app purchase key, as registered with the simulator. As Apple's, one key signs for
    /// every app of its team: a token's `bid` picks one of `bundleIds`.
    public struct Key: Sendable {
        public var issuerId: String
        public var keyId: String
        /// The app a call acts for: after `authorize`, the token's `bid`; as registered, the first of `bundleIds`.
        public var bundleId: String
        /// The apps the key may sign for.
        public var bundleIds: Set<String>
        public var publicKey: P256.Signing.PublicKey

        public init(
            issuerId: String, keyId: String, bundleId: String, otherBundleIds: [String] = [],
            publicKey: P256.Signing.PublicKey
        ) {
            self.issuerId = issuerId
            self.keyId = keyId
            self.bundleId = bundleId
            self.bundleIds = Set([bundleId] + otherBundleIds)
            self.publicKey = publicKey
        }
    }

    public nonisolated let store: SimulatedAppStore
    /// Transactions per history page (Apple's is 20).
    public nonisolated let pageSize: Int
    let now: @Sendable () -> Date
    var keys: [String: Key] = [:]
    /// The registered keys for jwt-kit, by `kid`.
    let signers = JWTKeyCollection()
    var faults: [ServerAPIFault] = []
    /// Calls answered 401 because of their token (not injected faults), by the reason given: a harness whose servers
    /// all hold registered keys expects none but `expired` after it moved the clock on.
    public internal(set) var refusals: [String: Int] = [:]
    /// Notifications Get Notification History has listed so far, every page counted: what reconciliation read.
    public internal(set) var notificationsListed = 0
    var consumption: [String: AppStoreServerAPI.ConsumptionRequest] = [:]
    var consumptionV2: [String: AppStoreServerAPI.ConsumptionRequestV2] = [:]

    public init(store: SimulatedAppStore, pageSize: Int = 20, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.pageSize = max(1, pageSize)
        self.now = now
    }

    /// Accepts tokens signed by `key` from now on (replacing a key with the same `keyId`; the same key registered
    /// again for another app adds that app, as one App Store Connect key signs for every app of its team).
    public func register(_ key: Key) async {
        var key = key
        if let known = keys[key.keyId], known.issuerId == key.issuerId,
            known.publicKey.rawRepresentation == key.publicKey.rawRepresentation
        {
            key.bundleIds.formUnion(known.bundleIds)
        }
        guard let verifying = try? ES256PublicKey(backing: key.publicKey) else {
            preconditionFailure("a P-256 public key always converts to jwt-kit's")
        }
        // jwt-kit first: a token never finds the kid in `keys` before its key is there to check the signature.
        await signers.add(ecdsa: verifying, kid: JWKIdentifier(string: key.keyId))
        keys[key.keyId] = key
    }

    /// The next calls answer these faults, first in first out, whatever they ask.
    public func injectFaults(_ faults: [ServerAPIFault]) {
        self.faults += faults
    }

    /// The last version 1 consumption information sent for a transaction.
    public func consumptionInformation(transactionID: String) -> AppStoreServerAPI.ConsumptionRequest? {
        consumption[transactionID]
    }

    /// Get Transaction Info.
    public func transactionInfo(transactionID: String, authorization: String?) async throws(AppStoreServerAPIError)
        -> AppStoreServerAPI.TransactionInfoResponse
    {
        let key = try await authorize(authorization)
        try Self.requireNumeric(transactionID, else: .invalidTransactionId)
        guard let purchase = await store.purchase(transactionID: transactionID),
            purchase.transaction.bundleId == key.bundleId
        else { throw Self.transactionNotFound() }
        return .init(signedTransactionInfo: try sign(purchase.transaction))
    }

    /// Look Up Order ID: status 0 and the order's transactions, or status 1 when the order is unknown.
    public func lookUpOrder(orderID: String, authorization: String?) async throws(AppStoreServerAPIError)
        -> AppStoreServerAPI.OrderLookupResponse
    {
        let key = try await authorize(authorization)
        let matching = await store.purchases().filter {
            $0.appleOrderId == orderID && $0.transaction.bundleId == key.bundleId
        }
        guard !matching.isEmpty else {
            return .init(status: AppStoreServerAPI.OrderLookupResponse.invalid, signedTransactions: [])
        }
        var signed: [String] = []
        for purchase in matching { signed.append(try sign(purchase.transaction)) }
        return .init(status: AppStoreServerAPI.OrderLookupResponse.valid, signedTransactions: signed)
    }

    /// Set App Account Token: puts `{"appAccountToken": UUID}` on every transaction of the original transaction.
    public func setAppAccountToken(originalTransactionID: String, body: Data, authorization: String?)
        async
        throws(AppStoreServerAPIError)
    {
        let key = try await authorize(authorization)
        try Self.requireNumeric(originalTransactionID, else: .invalidOriginalTransactionId)
        guard let request = try? JSONDecoder().decode(AppStoreServerAPI.UpdateAppAccountTokenRequest.self, from: body),
            let token = UUID(uuidString: request.appAccountToken)
        else {
            throw Self.badRequest(
                .invalidAppAccountTokenUUID,
                "Invalid request. The app account token field must be a valid UUID.")
        }
        guard let named = await store.purchase(transactionID: originalTransactionID),
            named.transaction.bundleId == key.bundleId
        else {
            throw AppStoreServerAPIError(
                .originalTransactionIdNotFound, "Original transaction id not found.",
                httpStatus: 404)
        }
        guard (named.transaction.originalTransactionId ?? originalTransactionID) == originalTransactionID else {
            throw Self.badRequest(
                .transactionIdIsNotOriginalTransactionId,
                "Invalid request. The transaction ID provided is not an original transaction ID.")
        }
        guard named.transaction.inAppOwnershipType != "FAMILY_SHARED" else {
            throw Self.badRequest(
                .familyTransactionNotSupported,
                "Invalid request. Family Sharing transactions aren't supported.")
        }
        do {
            try await store.setAppAccountToken(originalTransactionID: originalTransactionID, token: token.uuidString)
        } catch {
            throw AppStoreServerAPIError(.generalInternal, "An unknown error occurred.", httpStatus: 500)
        }
    }

    nonisolated func sign(_ transaction: JWSTransaction) throws(AppStoreServerAPIError) -> String {
        do {
            return try store.signer.sign(transaction)
        } catch {
            throw AppStoreServerAPIError(.generalInternal, "An unknown error occurred.", httpStatus: 500)
        }
    }

    static func requireNumeric(_ id: String, else code: AppStoreServerAPIError.Code) throws(AppStoreServerAPIError) {
        guard !id.isEmpty, id.count <= 20, id.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw badRequest(code, "Invalid request. The identifier is invalid.")
        }
    }

    static func badRequest(_ code: AppStoreServerAPIError.Code, _ message: String) -> AppStoreServerAPIError {
        AppStoreServerAPIError(code, message, httpStatus: 400)
    }

    static func transactionNotFound() -> AppStoreServerAPIError {
        AppStoreServerAPIError(.transactionIdNotFound, "Transaction id not found.", httpStatus: 404)
    }
}
