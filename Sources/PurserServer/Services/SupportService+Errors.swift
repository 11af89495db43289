import AppStoreVerification
import PurserCore
import PurserStorage

extension SupportService {
    /// The longest user id a grant accepts, as long as an authenticator lets in.
    static let maxUserIDLength = UserID.maxLength

    /// Apple's transaction ids are decimal digits (`^[0-9]{1,20}$` in `openapi.yaml`); anything else is
    /// `invalid_transaction_id` before Apple or the ledger is asked.
    static func requireAppleTransactionID(_ id: String) throws {
        guard (1...20).contains(id.utf8.count),
            id.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { throw ServiceError(.invalidTransactionID, "an App Store transaction id is 1 to 20 decimal digits") }
    }

    /// Apple's `appTransactionId` is a string of digits today; 1 to 64 ASCII letters, digits and dashes are taken
    /// (room for Apple to change its form), anything else is `invalid_transaction_id` before the ledger is asked.
    static func requireAppTransactionID(_ id: String) throws {
        guard isIdentifier(id) else {
            throw ServiceError(
                .invalidTransactionID, "an appTransactionId is 1 to 64 ASCII letters, digits and dashes")
        }
    }

    /// The order id on the customer's Apple receipt e-mail (`MK5TTTVWJH`): 1 to 64 ASCII letters, digits and dashes
    /// are taken, anything else is `invalid_order_id` before Apple is asked (3,000 characters once answered 200 and
    /// an empty list).
    static func requireAppleOrderID(_ id: String) throws {
        guard isIdentifier(id) else {
            throw ServiceError(.invalidOrderID, "an Apple order id is 1 to 64 ASCII letters, digits and dashes")
        }
    }

    /// 1 to 64 ASCII letters, digits and dashes.
    private static func isIdentifier(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                [
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-")...UInt8(ascii: "-"),
                ]
                .contains { $0.contains(byte) }
            }
    }

    /// Runs one App Store Server API call and speaks of its failure in the domain's words: an unknown transaction is
    /// `not_found`, one that is not an Apple transaction id is `invalid_transaction_id`, and anything else (Apple
    /// unreachable, our credentials refused, an answer we cannot read) is `apple_unavailable`. None is a 500: the
    /// operator typed something, or Apple is in trouble.
    static func askingApple<T>(_ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch let error as AppStoreServerAPIError {
            switch error.code {
            case .transactionIdNotFound:
                throw ServiceError(.notFound, "Apple has no transaction with this id", cause: error)
            case .invalidTransactionId:
                throw ServiceError(.invalidTransactionID, "not an App Store transaction id", cause: error)
            default:
                throw ServiceError(
                    .appleUnavailable, "the App Store Server API did not answer: \(error.code)", cause: error)
            }
        }
    }

    /// `askingApple`, given up after `deadline`: a lookup an operator waits for must not hang on an App Store that
    /// does not answer (once 93 s, then a 502). Past the deadline it is `apple_unavailable`.
    static func askingApple<T: Sendable>(
        within deadline: Duration, _ call: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await askingApple(call) }
            group.addTask {
                try await Task.sleep(for: deadline)
                throw ServiceError(.appleUnavailable, "Apple did not answer within \(deadline)")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }

    /// Throws unless the grant's settlement leaves the transaction credited to `user`, or credited it just now to the
    /// owner its `appAccountToken` names (the answer's record says so: the grant did credit, so a 409 saying that
    /// nothing changed would be false). Credited earlier to another account is `already_credited` naming that account;
    /// revoked or still unbound is `not_grantable`.
    static func requireGranted(_ settlement: Settlement, transactionID: String, to user: UserID) throws {
        guard let record = settlement.record else {
            throw ServiceError(.notGrantable, "the ledger did not record transaction \(transactionID)")
        }
        switch record.state {
        case .credited where record.ownerID == user || settlement.creditedNow:
            return
        case .credited:
            let owner = record.ownerID?.rawValue ?? "another account"
            throw ServiceError(
                .alreadyCredited, "transaction \(transactionID) is already credited to \(owner); nothing was changed")
        case .revoked:
            throw ServiceError(.notGrantable, "Apple revoked transaction \(transactionID); it cannot be credited")
        default:
            throw ServiceError(
                .notGrantable,
                "transaction \(transactionID) stays \(record.state.rawValue): its appAccountToken names an order that "
                    + "cannot take it")
        }
    }

    /// Throws unless `order` (when given) is `user`'s order for `transaction`'s product and still waiting, so that a
    /// grant bound to it completes it: `not_found` when there is no such order, `not_grantable` otherwise.
    func requireWaiting(_ order: OrderID?, of user: UserID, for transaction: AppleTransaction) async throws {
        guard let order else { return }
        guard let found = try await submissions.store.order(order) else {
            throw ServiceError(.notFound, "the ledger has no order \(order)")
        }
        guard found.userID == user, found.state == .created, found.productID == transaction.productID else {
            throw ServiceError(
                .notGrantable,
                "order \(order) is \(found.userID)'s \(found.state.rawValue) order for \(found.productID), not \(user)'s "
                    + "waiting order for \(transaction.productID)")
        }
    }
}
