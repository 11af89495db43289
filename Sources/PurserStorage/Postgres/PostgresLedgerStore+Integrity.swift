import PostgresNIO

extension PostgresLedgerStore {
    public func integrity() async throws -> LedgerIntegrity {
        try await withConnection { connection in
            let schema = try await self.rows(connection, PostgresQuery(unsafeSQL: LedgerIntegrity.schemaQuery))
            try LedgerIntegrity.requireSchema(
                Int(try schema.first?.makeRandomAccess().int64("version") ?? 0),
                latest: Self.migrations.last?.version ?? 0)
            var subjects: [[String]] = []
            for check in LedgerIntegrity.checks {
                let rows = try await self.rows(
                    connection, PostgresQuery(unsafeSQL: check.query + " LIMIT \(LedgerIntegrity.perRule)"))
                subjects.append(try rows.map { try $0.makeRandomAccess().text("subject") })
            }
            let counts = try await self.rows(connection, PostgresQuery(unsafeSQL: LedgerIntegrity.countsQuery)).map {
                let row = $0.makeRandomAccess()
                return (kind: try row.text("kind"), name: try row.text("name"), amount: try row.int64("amount"))
            }
            let balances = try await self.rows(connection, PostgresQuery(unsafeSQL: LedgerIntegrity.balancesQuery)).map
            {
                let row = $0.makeRandomAccess()
                return LedgerIntegrity.SplitBalance(
                    user: try row.text("user_id"), currency: try row.text("currency"),
                    high: try row.int64("total_high"), low: try row.int64("total_low"))
            }
            return LedgerIntegrity.report(subjects: subjects, counts: counts, balances: balances)
        }
    }
}
