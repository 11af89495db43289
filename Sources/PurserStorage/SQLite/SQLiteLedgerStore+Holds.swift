import Foundation
import PurserCore

/// Holds on the one writer: the check of what is available and the write cannot be split by another change.
extension SQLiteLedgerStore {
    public func placeHold(_ request: WalletHold.Request, now: Date) async throws -> WalletHold.Outcome {
        try await write { database in
            let outcome = try WalletHoldRules.place(
                request, existing: try Self.hold(request.id, on: database),
                balances: try Self.writerBalances(request.userID, on: database),
                held: try Self.heldAmounts(request.userID, now: now, on: database), now: now)
            guard case .placed(let hold) = outcome else { return outcome }
            let at = hold.createdAt
            try database.query(
                """
                INSERT INTO wallet_holds (idempotency_id, user_id, amounts, reason, expires_in_seconds, cause, state,
                    expires_at, created_at)
                VALUES (?, ?, ?, ?, ?, ?, 'open', ?, ?)
                """,
                [
                    .text(request.id), .text(request.userID.rawValue), .text(try WalletRows.json(request.amounts)),
                    .text(request.reason), .integer(request.expiresInSeconds), .text(request.cause),
                    .integer(Int(hold.expiresAt.millis)), .integer(Int(at.millis)),
                ])
            try Self.insertAudit(WalletHoldRules.audit(hold, event: "held", cause: request.cause, at: at), on: database)
            return .placed(hold)
        }
    }

    public func captureHold(_ id: String, amounts: [String: Int64]?, cause: String, now: Date) async throws
        -> WalletHold.Resolution
    {
        try await write { database in
            guard var hold = try Self.hold(id, on: database) else { return .notFound }
            switch WalletHoldRules.capture(hold, amounts: amounts, now: now) {
            case .capture(let take):
                let balances = try Self.writerBalances(hold.request.userID, on: database)
                let change = try WalletHoldRules.captureTransaction(
                    hold, take: take, balances: balances, cause: cause, now: now)
                try Self.writeWalletTransaction(change, outbox: self.outbox, on: database)
                hold = try Self.resolve(hold, as: .captured, captured: take, cause: cause, now: now, on: database)
                return .resolved(hold, change)
            case .expire:
                return .alreadyResolved(try Self.resolve(hold, as: .expired, cause: "expiry", now: now, on: database))
            case .replay:
                return .replayed(
                    hold, try Self.walletTransaction(WalletHold.captureID(hold.request.id), on: database))
            case .exceeds: return .exceeds(hold)
            case .void, .alreadyResolved: return .alreadyResolved(hold)
            }
        }
    }

    public func voidHold(_ id: String, cause: String, now: Date) async throws -> WalletHold.Resolution {
        try await write { database in
            guard let hold = try Self.hold(id, on: database) else { return .notFound }
            switch WalletHoldRules.void(hold, now: now) {
            case .void:
                return .resolved(try Self.resolve(hold, as: .voided, cause: cause, now: now, on: database), nil)
            case .expire:
                return .alreadyResolved(try Self.resolve(hold, as: .expired, cause: "expiry", now: now, on: database))
            case .replay: return .replayed(hold, nil)
            case .capture, .exceeds, .alreadyResolved: return .alreadyResolved(hold)
            }
        }
    }

    public func expireHolds(now: Date, limit: Int) async throws -> Int {
        try await write { database in
            let due = try database.query(
                "SELECT idempotency_id FROM wallet_holds WHERE state = 'open' AND expires_at <= ? ORDER BY expires_at LIMIT ?",
                [.integer(Int(now.millis)), .integer(limit)])
            for row in due {
                if let hold = try Self.hold(try row.text("idempotency_id"), on: database) {
                    _ = try Self.resolve(hold, as: .expired, cause: "expiry", now: now, on: database)
                }
            }
            return due.count
        }
    }

    public func heldAmounts(of user: UserID, now: Date) async throws -> [String: Int64] {
        try await reading { try Self.heldAmounts(user, now: now, on: $0) }
    }

    public func hold(_ id: String) async throws -> WalletHold? {
        try await reading { try Self.hold(id, on: $0) }
    }

    /// Marks an open `hold` resolved, with its audit record; the hold afterwards.
    private static func resolve(
        _ hold: WalletHold, as state: WalletHold.State, captured: [String: Int64]? = nil, cause: String, now: Date,
        on database: SQLiteDatabase
    ) throws -> WalletHold {
        var resolved = hold
        resolved.state = state
        resolved.captured = captured
        resolved.resolvedAt = Date(millis: now.millis)
        try database.query(
            "UPDATE wallet_holds SET state = ?, captured = ?, resolved_at = ? WHERE idempotency_id = ? AND state = 'open'",
            [
                .text(state.rawValue), .optionalText(try captured.map(WalletRows.json)), .integer(Int(now.millis)),
                .text(hold.request.id),
            ])
        try insertAudit(WalletHoldRules.audit(resolved, event: state.rawValue, cause: cause, at: now), on: database)
        return resolved
    }

    /// What `user`'s open, unexpired holds reserve, per currency.
    static func heldAmounts(_ user: UserID, now: Date, on database: SQLiteDatabase) throws -> [String: Int64] {
        let rows = try database.query(
            "SELECT amounts FROM wallet_holds WHERE user_id = ? AND state = 'open' AND expires_at > ?",
            [.text(user.rawValue), .integer(Int(now.millis))])
        return try WalletHoldRules.held(try rows.map { try WalletRows.amounts(try $0.text("amounts")) })
    }

    static func hold(_ id: String, on database: SQLiteDatabase) throws -> WalletHold? {
        let rows = try database.query(
            """
            SELECT user_id, amounts, reason, expires_in_seconds, cause, state, captured, expires_at, created_at,
                resolved_at
            FROM wallet_holds WHERE idempotency_id = ?
            """, [.text(id)])
        guard let row = rows.first else { return nil }
        guard let state = WalletHold.State(rawValue: try row.text("state")) else {
            throw StorageError(.corrupt, "hold \(id) has an unknown state")
        }
        return WalletHold(
            request: .init(
                id: id, userID: UserID(try row.text("user_id")),
                amounts: try WalletRows.amounts(try row.text("amounts")),
                reason: try row.text("reason"), expiresInSeconds: try row.int("expires_in_seconds"),
                cause: try row.text("cause")),
            state: state, captured: try row.optionalText("captured").map(WalletRows.amounts),
            expiresAt: Date(millis: try row.int("expires_at")), createdAt: Date(millis: try row.int("created_at")),
            resolvedAt: row.column("resolved_at")?.integer.map { Date(millis: $0) })
    }
}
