import Foundation
import PurserCore

/// How both stores resolve a hold, decided from the hold as it is now: a capture or void of an open hold applies;
/// the same call again replays; anything else on a resolved hold changes nothing. An open hold past its expiry is
/// expired first, whoever asks.
enum WalletHoldRules {
    enum Decision: Equatable {
        case capture([String: Int64])
        case void
        /// Past its expiry but not swept yet: mark it expired, then answer `alreadyResolved`.
        case expire
        case replay
        case alreadyResolved
        case exceeds
    }

    /// A capture of `amounts` (all of the hold when `nil`).
    static func capture(_ hold: WalletHold, amounts: [String: Int64]?, now: Date) -> Decision {
        let take = amounts ?? hold.request.amounts
        switch hold.state {
        case .captured: return hold.captured == take ? .replay : .alreadyResolved
        case .voided, .expired: return .alreadyResolved
        case .open:
            if hold.expiresAt <= now { return .expire }
            let fits =
                !take.isEmpty && take.allSatisfy { $0.value > 0 && $0.value <= hold.request.amounts[$0.key] ?? 0 }
            return fits ? .capture(take) : .exceeds
        }
    }

    static func void(_ hold: WalletHold, now: Date) -> Decision {
        switch hold.state {
        case .voided: return .replay
        case .captured, .expired: return .alreadyResolved
        case .open: return hold.expiresAt <= now ? .expire : .void
        }
    }

    /// The wallet transaction a capture of `take` writes, leaving `balances` (before it) less `take`.
    static func captureTransaction(
        _ hold: WalletHold, take: [String: Int64], balances: [String: Int64], cause: String, now: Date
    ) -> WalletTransaction {
        let request = WalletTransaction.Request(
            id: WalletHold.captureID(hold.request.id), userID: hold.request.userID, amounts: take.mapValues { -$0 },
            reason: hold.request.reason, cause: cause)
        return WalletTransaction(
            request: request, balances: WalletRows.after(request, from: balances), recordedAt: Date(millis: now.millis))
    }

    /// What open, unexpired holds reserve, summed per currency.
    static func held(_ holds: [[String: Int64]]) -> [String: Int64] {
        holds.reduce(into: [:]) { total, amounts in
            for (currency, amount) in amounts { total[currency, default: 0] += amount }
        }
    }

    /// The first currency `amounts` (to reserve or spend, positive) cannot take from what is available (the balance
    /// less what is held; a debt has nothing available).
    static func shortfall(_ amounts: [String: Int64], balances: [String: Int64], held: [String: Int64])
        -> (currency: String, available: Int64)?
    {
        for (currency, amount) in amounts.sorted(by: { $0.key < $1.key }) where amount > 0 {
            let available = (balances[currency] ?? 0) - (held[currency] ?? 0)
            if available < amount { return (currency, available) }
        }
        return nil
    }

    static func audit(_ hold: WalletHold, event: String, cause: String, at: Date) -> AuditEvent {
        let amounts = (hold.captured ?? hold.request.amounts).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        return AuditEvent(
            at: at, subject: .hold, subjectID: hold.request.id, event: event, cause: cause,
            detail: "\(hold.request.userID) \(amounts.joined(separator: " ")): \(hold.request.reason)")
    }

    /// Migration 11 of both stores: holds, one row per caller id, with their state.
    static func migration(serial: String, integer: String) -> [String] {
        [
            """
            CREATE TABLE wallet_holds (
                id \(serial),
                idempotency_id TEXT NOT NULL UNIQUE,
                user_id TEXT NOT NULL,
                amounts TEXT NOT NULL,
                reason TEXT NOT NULL,
                expires_in_seconds \(integer) NOT NULL,
                cause TEXT NOT NULL,
                state TEXT NOT NULL,
                captured TEXT,
                expires_at \(integer) NOT NULL,
                created_at \(integer) NOT NULL,
                resolved_at \(integer)
            )
            """,
            "CREATE INDEX wallet_holds_open_user ON wallet_holds (user_id) WHERE state = 'open'",
            "CREATE INDEX wallet_holds_open_expiry ON wallet_holds (expires_at) WHERE state = 'open'",
        ]
    }
}
