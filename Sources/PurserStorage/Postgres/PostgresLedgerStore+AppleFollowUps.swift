import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    /// Migration 6, as `SQLiteLedgerStore.appleFollowUpMigration` in PostgreSQL's dialect. Version 5 is another
    /// change's; the runner applies each version it lacks, in the order of the list.
    static let appleFollowUpMigration = [
        "ALTER TABLE apple_transactions ADD COLUMN app_transaction_id TEXT",
        "ALTER TABLE apple_transactions ADD COLUMN credited_by TEXT",
        "ALTER TABLE apple_transactions ADD COLUMN finished_at_apple BIGINT",
        "ALTER TABLE apple_transactions ADD COLUMN app_account_token_for_apple TEXT",
        "CREATE INDEX apple_transactions_app_transaction ON apple_transactions (app_transaction_id)",
        """
        CREATE INDEX apple_transactions_follow_up ON apple_transactions (updated_at)
        WHERE (state = 'credited' AND finished_at_apple IS NULL AND credited_by IS NOT NULL)
            OR app_account_token_for_apple IS NOT NULL
        """,
    ]

    public func transactions(appTransactionID: String) async throws -> [LedgerTransaction] {
        try await withConnection { connection in
            let ids = try await self.rows(
                connection,
                """
                SELECT transaction_id FROM apple_transactions WHERE app_transaction_id = \(appTransactionID)
                ORDER BY recorded_at, transaction_id LIMIT 500
                """
            ).map { try $0.makeRandomAccess().text("transaction_id") }
            var records: [LedgerTransaction] = []
            for id in ids {
                if let record = try await self.transaction(id, on: connection) {
                    records.append(record)
                }
            }
            return records
        }
    }

    public func appleFollowUps(clientCreditedBefore: Date, limit: Int) async throws -> [AppleFollowUp] {
        let cutoff = clientCreditedBefore.millis
        return try await withConnection { connection in
            try await self.rows(
                connection,
                """
                SELECT transaction_id, original_transaction_id, environment, app_account_token_for_apple,
                    (state = 'credited' AND finished_at_apple IS NULL AND credited_by IS NOT NULL
                        AND (credited_by <> 'client' OR updated_at <= \(cutoff))) AS finish
                FROM apple_transactions
                WHERE (state = 'credited' AND finished_at_apple IS NULL AND credited_by IS NOT NULL
                        AND (credited_by <> 'client' OR updated_at <= \(cutoff)))
                    OR app_account_token_for_apple IS NOT NULL
                ORDER BY updated_at, transaction_id LIMIT \(Int64(max(limit, 0)))
                """
            ).map { raw in
                let row = raw.makeRandomAccess()
                guard let environment = AppStoreEnvironment(rawValue: try row.text("environment")) else {
                    throw StorageError(.corrupt, "a transaction has an unknown environment")
                }
                return AppleFollowUp(
                    transactionID: try row.text("transaction_id"),
                    originalTransactionID: try row.text("original_transaction_id"), environment: environment,
                    finish: try row["finish"].decode(Bool.self),
                    appAccountToken: try row.optionalText("app_account_token_for_apple").flatMap(OrderID.init))
            }
        }
    }

    public func recordAppleFollowUp(transactionID: String, finished: Bool, tokenWritten: OrderID?, now: Date)
        async throws
    {
        try await withConnection { connection in
            if finished {
                try await self.execute(
                    connection,
                    """
                    UPDATE apple_transactions SET finished_at_apple = \(now.millis)
                    WHERE transaction_id = \(transactionID) AND finished_at_apple IS NULL
                    """)
            }
            if let token = tokenWritten?.description {
                try await self.execute(
                    connection,
                    """
                    UPDATE apple_transactions SET app_account_token_for_apple = NULL
                    WHERE transaction_id = \(transactionID) AND app_account_token_for_apple = \(token)
                    """)
            }
        }
    }
}
