import Foundation
import PurserCore

extension SQLiteLedgerStore {
    static func order(_ id: OrderID, on database: SQLiteDatabase) throws -> Order? {
        let rows = try database.query(
            "SELECT id, user_id, product_id, quantity, state, transaction_id, created_at, updated_at FROM orders WHERE id = ?",
            [.text(id.description)])
        return try rows.first.map(order(from:))
    }

    /// The order in `row`, which has the columns of the `orders` table.
    static func order(from row: SQLiteRow) throws -> Order {
        guard let state = Order.State(rawValue: try row.text("state")), let orderID = OrderID(try row.text("id")) else {
            throw StorageError(.corrupt, "an order does not decode")
        }
        return Order(
            id: orderID, userID: UserID(try row.text("user_id")), productID: try row.text("product_id"),
            quantity: try row.int("quantity"), state: state, transactionID: row.optionalText("transaction_id"),
            createdAt: Date(millis: try row.int("created_at")), updatedAt: Date(millis: try row.int("updated_at")))
    }

    static func transaction(_ id: String, on database: SQLiteDatabase) throws -> LedgerTransaction? {
        let rows = try database.query(Self.transactionQuery, [.text(id)])
        guard let row = rows.first else { return nil }
        guard let state = LedgerTransaction.State(rawValue: try row.text("state")),
            let environment = AppStoreEnvironment(rawValue: try row.text("environment"))
        else {
            throw StorageError(.corrupt, "transaction \(id) does not decode")
        }
        let grantRows = try database.query(
            "SELECT currency, amount FROM grants WHERE transaction_id = ? AND kind = 'credit'", [.text(id)])
        var grants: [String: Int64] = [:]
        for grant in grantRows { grants[try grant.text("currency")] = Int64(try grant.int("amount")) }
        let revocation: Date? = row.column("revocation_date")?.integer.map { Date(millis: $0) }
        let transaction = AppleTransaction(
            transactionID: id, originalTransactionID: try row.text("original_transaction_id"),
            bundleID: try row.text("bundle_id"), productID: try row.text("product_id"), type: row.optionalText("type"),
            quantity: try row.int("quantity"), purchaseDate: Date(millis: try row.int("purchase_date")),
            appAccountToken: row.optionalText("app_account_token").flatMap(OrderID.init), environment: environment,
            revocationDate: revocation, revocationType: row.optionalText("revocation_type").map(RevocationType.init),
            revocationPercentage: row.column("revocation_percentage")?.integer,
            appTransactionID: row.optionalText("app_transaction_id"))
        let rejection = row.optionalText("rejection_code").map {
            RejectionReason(code: $0, message: row.optionalText("rejection_message") ?? "")
        }
        return LedgerTransaction(
            transaction: transaction, state: state, ownerID: row.optionalText("owner_id").map { UserID($0) },
            orderID: row.optionalText("order_id").flatMap(OrderID.init), rejection: rejection, grants: Grants(grants),
            recordedAt: Date(millis: try row.int("recorded_at")),
            finishedAtApple: row.column("finished_at_apple")?.integer.map { Date(millis: $0) })
    }
}

extension SQLiteLedgerStore {
    /// A transaction's row by id, its columns named (a kept statement's columns are fixed when it is prepared).
    static let transactionQuery = """
        SELECT transaction_id, original_transaction_id, bundle_id, product_id, type, quantity, purchase_date,
            app_account_token, environment, revocation_date, state, owner_id, order_id, rejection_code,
            rejection_message, recorded_at, revocation_type, revocation_percentage, app_transaction_id,
            finished_at_apple
        FROM apple_transactions WHERE transaction_id = ?
        """
}
