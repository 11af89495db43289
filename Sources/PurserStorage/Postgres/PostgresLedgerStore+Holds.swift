import Foundation
import PostgresNIO
import PurserCore

/// Holds shared by replicas: a new hold takes its id's lock, then the user's balance lock (as spends do); a capture
/// or void locks the hold's row first, so a capture racing a void (or the expiry sweep) resolves it once.
extension PostgresLedgerStore {
    /// The advisory lock class of hold ids (with `hashtext(id)`): "purh" in ASCII.
    static let holdIDLockKey: Int32 = 0x7075_7268

    public func placeHold(_ request: WalletHold.Request, now: Date) async throws -> WalletHold.Outcome {
        try await inTransaction { connection in
            try await self.execute(
                connection, "SELECT pg_advisory_xact_lock(\(Self.holdIDLockKey), hashtext(\(request.id)))")
            let existing = try await self.hold(request.id, lock: false, on: connection)
            let user = request.userID.rawValue
            var (balances, held): ([String: Int64], [String: Int64]) = ([:], [:])
            if existing == nil {
                try await self.execute(
                    connection, "SELECT pg_advisory_xact_lock(\(Self.balanceLockKey), hashtext(\(user)))")
                balances = try await self.balances(request.userID, on: connection)
                held = try await self.heldAmounts(request.userID, now: now, on: connection)
            }
            let outcome = try WalletHoldRules.place(
                request, existing: existing, balances: balances, held: held, now: now)
            guard case .placed(let hold) = outcome else { return outcome }
            let at = hold.createdAt
            try await self.execute(
                connection,
                """
                INSERT INTO wallet_holds (idempotency_id, user_id, amounts, reason, expires_in_seconds, cause, state,
                    expires_at, created_at)
                VALUES (\(request.id), \(user), \(try WalletRows.json(request.amounts)), \(request.reason),
                    \(Int64(request.expiresInSeconds)), \(request.cause), 'open', \(hold.expiresAt.millis), \(at.millis))
                """)
            try await self.insertAudit(
                WalletHoldRules.audit(hold, event: "held", cause: request.cause, at: at), on: connection)
            return .placed(hold)
        }
    }

    public func captureHold(_ id: String, amounts: [String: Int64]?, cause: String, now: Date) async throws
        -> WalletHold.Resolution
    {
        try await inTransaction { connection in
            guard var hold = try await self.hold(id, lock: true, on: connection) else { return .notFound }
            switch WalletHoldRules.capture(hold, amounts: amounts, now: now) {
            case .capture(let take):
                try await self.execute(
                    connection,
                    "SELECT pg_advisory_xact_lock(\(Self.balanceLockKey), hashtext(\(hold.request.userID.rawValue)))")
                let balances = try await self.balances(hold.request.userID, on: connection)
                let change = try WalletHoldRules.captureTransaction(
                    hold, take: take, balances: balances, cause: cause, now: now)
                try await self.writeWalletTransaction(change, on: connection)
                hold = try await self.resolve(
                    hold, as: .captured, captured: take, cause: cause, now: now, on: connection)
                return .resolved(hold, change)
            case .expire:
                return .alreadyResolved(
                    try await self.resolve(hold, as: .expired, cause: "expiry", now: now, on: connection))
            case .replay:
                let captureID = WalletHold.captureID(hold.request.id)
                let state = try await self.ledgerState(ids: [captureID], users: [], now: now, on: connection)
                return .replayed(hold, state.existing[captureID])
            case .exceeds: return .exceeds(hold)
            case .void, .alreadyResolved: return .alreadyResolved(hold)
            }
        }
    }

    public func voidHold(_ id: String, cause: String, now: Date) async throws -> WalletHold.Resolution {
        try await inTransaction { connection in
            guard let hold = try await self.hold(id, lock: true, on: connection) else { return .notFound }
            switch WalletHoldRules.void(hold, now: now) {
            case .void:
                return .resolved(
                    try await self.resolve(hold, as: .voided, cause: cause, now: now, on: connection), nil)
            case .expire:
                return .alreadyResolved(
                    try await self.resolve(hold, as: .expired, cause: "expiry", now: now, on: connection))
            case .replay: return .replayed(hold, nil)
            case .capture, .exceeds, .alreadyResolved: return .alreadyResolved(hold)
            }
        }
    }

    public func expireHolds(now: Date, limit: Int) async throws -> Int {
        try await inTransaction { connection in
            let due = try await self.rows(
                connection,
                """
                SELECT idempotency_id FROM wallet_holds WHERE state = 'open' AND expires_at <= \(now.millis)
                ORDER BY expires_at LIMIT \(limit) FOR UPDATE SKIP LOCKED
                """)
            for row in due {
                if let hold = try await self.hold(
                    try row.makeRandomAccess().text("idempotency_id"), lock: false, on: connection)
                {
                    _ = try await self.resolve(hold, as: .expired, cause: "expiry", now: now, on: connection)
                }
            }
            return due.count
        }
    }

    public func heldAmounts(of user: UserID, now: Date) async throws -> [String: Int64] {
        try await withConnection { try await self.heldAmounts(user, now: now, on: $0) }
    }

    public func hold(_ id: String) async throws -> WalletHold? {
        try await withConnection { try await self.hold(id, lock: false, on: $0) }
    }

    private func resolve(
        _ hold: WalletHold, as state: WalletHold.State, captured: [String: Int64]? = nil, cause: String, now: Date,
        on connection: PostgresConnection
    ) async throws -> WalletHold {
        var resolved = hold
        resolved.state = state
        resolved.captured = captured
        resolved.resolvedAt = Date(millis: now.millis)
        try await execute(
            connection,
            """
            UPDATE wallet_holds SET state = \(state.rawValue), captured = \(try captured.map(WalletRows.json)),
                resolved_at = \(now.millis)
            WHERE idempotency_id = \(hold.request.id) AND state = 'open'
            """)
        try await insertAudit(
            WalletHoldRules.audit(resolved, event: state.rawValue, cause: cause, at: now), on: connection)
        return resolved
    }

    /// What `user`'s open, unexpired holds reserve, per currency.
    func heldAmounts(_ user: UserID, now: Date, on connection: PostgresConnection) async throws -> [String: Int64] {
        let rows = try await rows(
            connection,
            """
            SELECT amounts FROM wallet_holds
            WHERE user_id = \(user.rawValue) AND state = 'open' AND expires_at > \(now.millis)
            """)
        return try WalletHoldRules.held(
            try rows.map { try WalletRows.amounts(try $0.makeRandomAccess().text("amounts")) })
    }

    private func hold(_ id: String, lock: Bool, on connection: PostgresConnection) async throws -> WalletHold? {
        let rows = try await rows(
            connection,
            """
            SELECT user_id, amounts, reason, expires_in_seconds, cause, state, captured, expires_at, created_at,
                resolved_at
            FROM wallet_holds WHERE idempotency_id = \(id)\(unescaped: lock ? " FOR UPDATE" : "")
            """)
        guard let row = rows.first?.makeRandomAccess() else { return nil }
        guard let state = WalletHold.State(rawValue: try row.text("state")) else {
            throw StorageError(.corrupt, "hold \(id) has an unknown state")
        }
        return WalletHold(
            request: .init(
                id: id, userID: UserID(try row.text("user_id")),
                amounts: try WalletRows.amounts(try row.text("amounts")),
                reason: try row.text("reason"), expiresInSeconds: Int(try row.int64("expires_in_seconds")),
                cause: try row.text("cause")),
            state: state, captured: try row.optionalText("captured").map(WalletRows.amounts),
            expiresAt: Date(millis: try row.int64("expires_at")), createdAt: Date(millis: try row.int64("created_at")),
            resolvedAt: try row["resolved_at"].decode(Int64?.self).map { Date(millis: $0) })
    }
}
