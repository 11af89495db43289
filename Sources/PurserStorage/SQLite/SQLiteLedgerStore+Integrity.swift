extension SQLiteLedgerStore {
    public func integrity() async throws -> LedgerIntegrity {
        let schema = try await read(LedgerIntegrity.schemaQuery, []).first?.int("version") ?? 0
        try LedgerIntegrity.requireSchema(schema, latest: Self.migrations.last?.version ?? 0)
        var subjects: [[String]] = []
        for check in LedgerIntegrity.checks {
            let rows = try await read(check.query + " LIMIT \(LedgerIntegrity.perRule)", [])
            subjects.append(try rows.map { try $0.text("subject") })
        }
        let counts = try await read(LedgerIntegrity.countsQuery, []).map {
            (kind: try $0.text("kind"), name: try $0.text("name"), amount: Int64(try $0.int("amount")))
        }
        let balances = try await read(LedgerIntegrity.balancesQuery, []).map {
            LedgerIntegrity.SplitBalance(
                user: try $0.text("user_id"), currency: try $0.text("currency"),
                high: Int64(try $0.int("total_high")), low: Int64(try $0.int("total_low")))
        }
        return LedgerIntegrity.report(subjects: subjects, counts: counts, balances: balances)
    }
}
