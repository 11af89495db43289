import Foundation
import Logging
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    /// The order `id`; with `lock`, its row stays locked (`FOR UPDATE`) until the surrounding transaction ends, so that
    /// two settlements naming one order decide one after the other, the second seeing what the first wrote.
    func order(_ id: OrderID, on connection: PostgresConnection, lock: Bool) async throws -> Order? {
        let rows = try await rows(
            connection,
            """
            SELECT id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at FROM orders
            WHERE id = \(id.description)\(unescaped: lock ? " FOR UPDATE" : "")
            """)
        guard let row = rows.first?.makeRandomAccess() else { return nil }
        return try Self.order(from: row)
    }

    /// The order in `row`, which has the columns of the `orders` table.
    static func order(from row: PostgresRandomAccessRow) throws -> Order {
        guard let state = Order.State(rawValue: try row.text("state")), let orderID = OrderID(try row.text("id")) else {
            throw StorageError(.corrupt, "an order does not decode")
        }
        return Order(
            id: orderID, userID: UserID(try row.text("user_id")), productID: try row.text("product_id"),
            quantity: Int(try row.int64("quantity")), state: state,
            transactionID: try row.optionalText("transaction_id"),
            createdAt: Date(millis: try row.int64("created_at")), updatedAt: Date(millis: try row.int64("updated_at")))
    }

    /// The record of `id`, locked for the rest of the transaction, or nil.
    func lockedTransaction(_ id: String, on connection: PostgresConnection) async throws -> LedgerTransaction? {
        guard try await lockTransaction(id, on: connection) else { return nil }
        return try await transaction(id, on: connection)
    }

    /// Locks the ledger's record of `id` (`FOR UPDATE`) until the surrounding transaction ends; false when there is
    /// none. Read the record afterwards, in a new statement: it then sees whatever the previous holder committed.
    func lockTransaction(_ id: String, on connection: PostgresConnection) async throws -> Bool {
        try await !rows(
            connection, "SELECT transaction_id FROM apple_transactions WHERE transaction_id = \(id) FOR UPDATE"
        )
        .isEmpty
    }

    /// The ledger's record of `id` with its credit grants, read in one statement (one snapshot).
    func transaction(_ id: String, on connection: PostgresConnection) async throws -> LedgerTransaction? {
        let rows = try await rows(
            connection,
            """
            SELECT t.*,
                ARRAY(SELECT currency FROM grants g WHERE g.transaction_id = t.transaction_id AND g.kind = 'credit'
                      ORDER BY g.id) AS grant_currencies,
                ARRAY(SELECT amount FROM grants g WHERE g.transaction_id = t.transaction_id AND g.kind = 'credit'
                      ORDER BY g.id) AS grant_amounts
            FROM apple_transactions t WHERE t.transaction_id = \(id)
            """)
        guard let row = rows.first?.makeRandomAccess() else { return nil }
        return try Self.transaction(from: row, id: id)
    }

    /// The transaction `id` in `row`, which has the columns of `apple_transactions` and the credit grants' currencies
    /// and amounts as `grant_currencies` and `grant_amounts`.
    static func transaction(from row: PostgresRandomAccessRow, id: String) throws -> LedgerTransaction {
        guard let state = LedgerTransaction.State(rawValue: try row.text("state")),
            let environment = AppStoreEnvironment(rawValue: try row.text("environment"))
        else {
            throw StorageError(.corrupt, "transaction \(id) does not decode")
        }
        let currencies = try row["grant_currencies"].decode([String].self)
        let amounts = try row["grant_amounts"].decode([Int64].self)
        let transaction = AppleTransaction(
            transactionID: id, originalTransactionID: try row.text("original_transaction_id"),
            bundleID: try row.text("bundle_id"), productID: try row.text("product_id"),
            type: try row.optionalText("type"), quantity: Int(try row.int64("quantity")),
            purchaseDate: Date(millis: try row.int64("purchase_date")),
            appAccountToken: try row.optionalText("app_account_token").flatMap(OrderID.init), environment: environment,
            revocationDate: try row["revocation_date"].decode(Int64?.self).map { Date(millis: $0) },
            revocationType: try row.optionalText("revocation_type").map(RevocationType.init),
            revocationPercentage: try row["revocation_percentage"].decode(Int64?.self).map { Int($0) },
            appTransactionID: try row.optionalText("app_transaction_id"))
        let rejection = try row.optionalText("rejection_code").map {
            RejectionReason(code: $0, message: try row.optionalText("rejection_message") ?? "")
        }
        return LedgerTransaction(
            transaction: transaction, state: state, ownerID: try row.optionalText("owner_id").map { UserID($0) },
            orderID: try row.optionalText("order_id").flatMap(OrderID.init), rejection: rejection,
            grants: Grants(Dictionary(zip(currencies, amounts), uniquingKeysWith: +)),
            recordedAt: Date(millis: try row.int64("recorded_at")),
            finishedAtApple: try row["finished_at_apple"].decode(Int64?.self).map { Date(millis: $0) })
    }
}

extension PostgresRandomAccessRow {
    func text(_ name: String) throws -> String { try self[name].decode(String.self) }
    func optionalText(_ name: String) throws -> String? { try self[name].decode(String?.self) }
    func int64(_ name: String) throws -> Int64 { try self[name].decode(Int64.self) }
    func optionalInt64(_ name: String) throws -> Int64? { try self[name].decode(Int64?.self) }
}
