import Foundation
import PurserCore

extension SQLiteLedgerStore {
    /// Migration 6: Apple's `appTransactionId` on every transaction (support finds an account's purchases by it),
    /// and what Purser owes Apple about a credit: who credited it (`credited_by`, a `Submission.Source` category),
    /// when Finish Transaction succeeded (`finished_at_apple`) and the token Set App Account Token should write
    /// (`app_account_token_for_apple`). Version 5 is another change's; the runner applies each version it lacks.
    static let appleFollowUpMigration = [
        "ALTER TABLE apple_transactions ADD COLUMN app_transaction_id TEXT",
        "ALTER TABLE apple_transactions ADD COLUMN credited_by TEXT",
        "ALTER TABLE apple_transactions ADD COLUMN finished_at_apple INTEGER",
        "ALTER TABLE apple_transactions ADD COLUMN app_account_token_for_apple TEXT",
        "CREATE INDEX apple_transactions_app_transaction ON apple_transactions (app_transaction_id)",
        """
        CREATE INDEX apple_transactions_follow_up ON apple_transactions (updated_at)
        WHERE (state = 'credited' AND finished_at_apple IS NULL AND credited_by IS NOT NULL)
            OR app_account_token_for_apple IS NOT NULL
        """,
    ]

    public func transactions(appTransactionID: String) async throws -> [LedgerTransaction] {
        try await reading { database in
            let ids = try database.query(
                """
                SELECT transaction_id FROM apple_transactions WHERE app_transaction_id = ?
                ORDER BY recorded_at, transaction_id LIMIT 500
                """, [.text(appTransactionID)])
            var records: [LedgerTransaction] = []
            for row in ids {
                if let record = try Self.transaction(try row.text("transaction_id"), on: database) {
                    records.append(record)
                }
            }
            return records
        }
    }

    public func appleFollowUps(clientCreditedBefore: Date, limit: Int) async throws -> [AppleFollowUp] {
        let finishDue = """
            (state = 'credited' AND finished_at_apple IS NULL AND credited_by IS NOT NULL
                AND (credited_by <> 'client' OR updated_at <= ?1))
            """
        let rows = try await read(
            """
            SELECT transaction_id, original_transaction_id, environment, app_account_token_for_apple,
                \(finishDue) AS finish
            FROM apple_transactions WHERE \(finishDue) OR app_account_token_for_apple IS NOT NULL
            ORDER BY updated_at, transaction_id LIMIT ?2
            """, [.integer(Int(clientCreditedBefore.millis)), .integer(max(limit, 0))])
        return try rows.map { row in
            guard let environment = AppStoreEnvironment(rawValue: try row.text("environment")) else {
                throw StorageError(.corrupt, "a transaction has an unknown environment")
            }
            return AppleFollowUp(
                transactionID: try row.text("transaction_id"),
                originalTransactionID: try row.text("original_transaction_id"), environment: environment,
                finish: try row.int("finish") != 0,
                appAccountToken: row.optionalText("app_account_token_for_apple").flatMap(OrderID.init))
        }
    }

    public func recordAppleFollowUp(transactionID: String, finished: Bool, tokenWritten: OrderID?, now: Date)
        async throws
    {
        try await write { database in
            if finished {
                try database.query(
                    """
                    UPDATE apple_transactions SET finished_at_apple = ?
                    WHERE transaction_id = ? AND finished_at_apple IS NULL
                    """, [.integer(Int(now.millis)), .text(transactionID)])
            }
            if let tokenWritten {
                try database.query(
                    """
                    UPDATE apple_transactions SET app_account_token_for_apple = NULL
                    WHERE transaction_id = ? AND app_account_token_for_apple = ?
                    """, [.text(transactionID), .text(tokenWritten.description)])
            }
        }
    }
}
