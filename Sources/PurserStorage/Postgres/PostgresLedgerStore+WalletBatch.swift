import Foundation
import PostgresNIO
import PurserCore

extension PostgresLedgerStore {
    /// Applies wallet transactions in batches (`PostgresWalletBatcher`), in one database transaction each: the ids'
    /// locks then the users' balance locks (the ones refunds and holds take), always in one order, so two requests with
    /// one id apply one after the other (the second replays or conflicts), and nothing changes a balance between the
    /// check and the write. A batch that fails for any reason but the database being unavailable is applied again one
    /// request at a time, so one bad request sinks no other.
    func applyWalletBatch(_ items: [PostgresWalletBatcher.Item]) async {
        await PostgresWalletBatcher.answer(items, logger: logger, what: "wallet") { batch in
            try await inTransaction { connection in try await self.apply(batch, on: connection) }
        }
    }

    /// `BEGIN`, the locks, what the ledger holds (earlier requests with these ids, the users' balances and open
    /// holds), the rules in Swift, the rows' ids and sequences, one write, `COMMIT`: six round trips a batch.
    private func apply(_ items: [PostgresWalletBatcher.Item], on connection: PostgresConnection) async throws
        -> [WalletTransaction.Outcome]
    {
        let ids = items.map(\.work.id)
        let users = Array(Set(items.map(\.work.userID.rawValue))).sorted()
        try await execute(
            connection,
            """
            SELECT pg_advisory_xact_lock(l.k, l.h) FROM (
                SELECT \(Self.walletIDLockKey)::INT AS k, hashtext(i) AS h, 0 AS o, i AS v FROM unnest(\(ids)::TEXT[]) i
                UNION ALL
                SELECT \(Self.balanceLockKey)::INT, hashtext(u), 1, u FROM unnest(\(users)::TEXT[]) u) AS l
            ORDER BY l.o, l.h, l.v
            """)
        let state = try await ledgerState(ids: ids, users: users, now: items[0].now, on: connection)
        var (existing, balances) = (state.existing, state.balances)
        var outcomes: [WalletTransaction.Outcome] = []
        var applied: [WalletTransaction] = []
        for item in items {
            let request = item.work
            let user = request.userID.rawValue
            // The plan sees what earlier requests of this batch left: their balances, and their ids.
            let outcome = try WalletRules.plan(
                request, existing: existing[request.id], balances: balances[user] ?? [:], held: state.held[user] ?? [:],
                now: item.now)
            if case .applied(let change) = outcome {
                balances[user, default: [:]].merge(change.balances) { _, after in after }
                existing[request.id] = change
                applied.append(change)
            }
            outcomes.append(outcome)
        }
        if !applied.isEmpty { try await write(applied, on: connection) }
        return outcomes
    }

    /// In one statement: the wallet transactions already recorded under `ids`, by id; each user's balances (their
    /// grants and wallet entries summed per currency); and what each user's open holds, unexpired at `now`, reserve.
    func ledgerState(ids: [String], users: [String], now: Date, on connection: PostgresConnection)
        async throws -> (
            existing: [String: WalletTransaction], balances: [String: [String: Int64]],
            held: [String: [String: Int64]]
        )
    {
        let rows = try await rows(
            connection,
            """
            SELECT 't' AS kind, user_id, idempotency_id AS key, amounts, reason, metadata, cause, balances,
                created_at AS number, NULL::BIGINT AS low
            FROM wallet_transactions WHERE idempotency_id = ANY (\(ids)::TEXT[])
            UNION ALL
            SELECT 'b', user_id, currency, NULL, NULL, NULL, NULL, NULL, high, low
            FROM balances WHERE user_id = ANY (\(users)::TEXT[])
            UNION ALL
            SELECT 'h', user_id, NULL, amounts, NULL, NULL, NULL, NULL, NULL, NULL FROM wallet_holds
            WHERE user_id = ANY (\(users)::TEXT[]) AND state = 'open' AND expires_at > \(now.millis)
            """)
        var existing: [String: WalletTransaction] = [:]
        var balances: [String: [String: Int64]] = [:]
        var holds: [String: [[String: Int64]]] = [:]
        for raw in rows {
            let row = raw.makeRandomAccess()
            let user = try row.text("user_id")
            switch try row.text("kind") {
            case "t":
                let id = try row.text("key")
                existing[id] = WalletTransaction(
                    request: .init(
                        id: id, userID: UserID(user), amounts: try WalletRows.amounts(try row.text("amounts")),
                        reason: try row.text("reason"), metadata: try row.optionalText("metadata"),
                        cause: try row.text("cause")),
                    balances: try WalletRows.amounts(try row.text("balances")),
                    recordedAt: Date(millis: try row.int64("number")))
            case "b":
                let currency = try row.text("key")
                balances[user, default: [:]][currency] = try SplitSum.total(
                    high: try row.int64("number"), low: try row.int64("low"), currency: currency)
            default:
                holds[user, default: []].append(try WalletRows.amounts(try row.text("amounts")))
            }
        }
        return (
            existing, balances, try holds.mapValues { (holds) throws(AmountError) in try WalletHoldRules.held(holds) }
        )
    }
}
