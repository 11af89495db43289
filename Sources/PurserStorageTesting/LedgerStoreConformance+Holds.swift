import Foundation
import PurserCore
import PurserStorage
import Testing

/// Holds: reserved amounts no spend may take, resolved once (captured in full or in part, voided, or expired).
extension LedgerStoreConformance {
    func holdRequest(_ id: String, _ user: UserID, _ amounts: [String: Int64], seconds: Int = 600)
        -> WalletHold.Request
    {
        WalletHold.Request(
            id: id, userID: user, amounts: amounts, reason: "auction", expiresInSeconds: seconds, cause: "admin")
    }

    func resolvedNow(_ resolution: WalletHold.Resolution) -> Bool {
        if case .resolved = resolution { return true }
        return false
    }

    public func reservesWithHoldsAndResolvesEachOnce() async throws {
        _ = try await store.applyWalletTransaction(walletRequest("w-hoshi-0", "hoshi", ["gold": 100]), now: now)
        let first = holdRequest("h-hoshi-1", "hoshi", ["gold": 30])
        guard case .placed(let placed) = try await store.placeHold(first, now: now) else {
            Issue.record("a covered hold was not placed")
            return
        }
        #expect(placed.state == .open && placed.expiresAt == now + 600)
        #expect(try await store.placeHold(first, now: now + 1) == .replayed(placed))
        var other = first
        other.amounts = ["gold": 31]
        #expect(try await store.placeHold(other, now: now + 1) == .conflict(["amounts"]))
        #expect(try await store.heldAmounts(of: "hoshi", now: now + 1) == ["gold": 30])

        // What is held cannot be spent, nor held again.
        #expect(
            try await store.applyWalletTransaction(walletRequest("w-hoshi-1", "hoshi", ["gold": -80]), now: now + 2)
                == .insufficient(currency: "gold", balance: 70, requested: 80))
        guard
            case .applied = try await store.applyWalletTransaction(
                walletRequest("w-hoshi-2", "hoshi", ["gold": -70]), now: now + 2)
        else {
            Issue.record("a spend of what is available was refused")
            return
        }
        #expect(
            try await store.placeHold(holdRequest("h-hoshi-2", "hoshi", ["gold": 1]), now: now + 2)
                == .insufficient(currency: "gold", available: 0, requested: 1))

        // Captured in part: the rest released; the same capture replays; anything else changes nothing.
        let captured = try await store.captureHold("h-hoshi-1", amounts: ["gold": 20], cause: "admin", now: now + 3)
        guard case .resolved(let hold, let change) = captured else {
            Issue.record("an open hold was not captured: \(captured)")
            return
        }
        #expect(hold.state == .captured && hold.captured == ["gold": 20] && change?.balances == ["gold": 10])
        #expect(try await store.balances(of: "hoshi") == ["gold": 10])
        #expect(try await store.heldAmounts(of: "hoshi", now: now + 3) == [:])
        #expect(
            try await store.captureHold("h-hoshi-1", amounts: ["gold": 20], cause: "admin", now: now + 4)
                == .replayed(hold, change), "a replayed capture answers its first answer, balances included")
        #expect(
            try await store.captureHold("h-hoshi-1", amounts: nil, cause: "admin", now: now + 4)
                == .alreadyResolved(hold))
        #expect(try await store.voidHold("h-hoshi-1", cause: "admin", now: now + 4) == .alreadyResolved(hold))
        #expect(try await store.balances(of: "hoshi") == ["gold": 10])

        _ = try await store.placeHold(holdRequest("h-hoshi-3", "hoshi", ["gold": 5]), now: now + 5)
        #expect(try await store.captureHold("h-hoshi-3", amounts: ["gold": 6], cause: "admin", now: now + 5).isExceeds)
        #expect(try await store.captureHold("h-hoshi-3", amounts: ["gems": 1], cause: "admin", now: now + 5).isExceeds)
        #expect(resolvedNow(try await store.voidHold("h-hoshi-3", cause: "admin", now: now + 6)))
        #expect(try await store.voidHold("h-hoshi-3", cause: "admin", now: now + 7).isReplayed)
        #expect(try await store.captureHold("h-hoshi-3", amounts: nil, cause: "admin", now: now + 7).state == .voided)
        #expect(try await store.captureHold("h-nobody", amounts: nil, cause: "admin", now: now + 7) == .notFound)

        // Past its expiry: a capture finds it expired, and the sweep expires each hold once.
        _ = try await store.placeHold(holdRequest("h-hoshi-4", "hoshi", ["gold": 1], seconds: 1), now: now + 8)
        #expect(try await store.captureHold("h-hoshi-4", amounts: nil, cause: "admin", now: now + 10).state == .expired)
        _ = try await store.placeHold(holdRequest("h-hoshi-5", "hoshi", ["gold": 1], seconds: 1), now: now + 8)
        #expect(try await store.heldAmounts(of: "hoshi", now: now + 10) == [:], "an expired hold holds nothing")
        #expect(try await store.expireHolds(now: now + 10, limit: 100) == 1)
        #expect(try await store.expireHolds(now: now + 10, limit: 100) == 0)
        #expect(try await store.hold("h-hoshi-5")?.state == .expired)

        // A capture racing a void resolves the hold once.
        let before = try await store.health().openHolds.count
        _ = try await store.placeHold(holdRequest("h-hoshi-6", "hoshi", ["gold": 5]), now: now + 11)
        #expect(try await store.health().openHolds.count == before + 1, "an open hold is counted")
        async let capture = store.captureHold("h-hoshi-6", amounts: nil, cause: "admin", now: now + 12)
        async let void = store.voidHold("h-hoshi-6", cause: "admin", now: now + 12)
        let outcomes = try await [capture, void]
        #expect(try await store.health().openHolds.count == before, "a resolved hold is not")
        #expect(outcomes.filter(resolvedNow).count == 1, "\(outcomes)")
        let balance = try await store.balances(of: "hoshi")["gold"]
        #expect(balance == 10 || balance == 5)
        let history = try await store.walletHistory(of: "hoshi", after: nil, limit: 20).entries
        #expect(
            history.contains { $0.reference == "hold:h-hoshi-1" && $0.amounts == ["gold": -20] && $0.kind == "spend" })
        #expect(try await store.auditTrail(of: "h-hoshi-1").map(\.event) == ["held", "captured"])
    }
}

extension WalletHold.Resolution {
    var isExceeds: Bool {
        if case .exceeds = self { return true }
        return false
    }
    var isReplayed: Bool {
        if case .replayed = self { return true }
        return false
    }
    /// The hold's state afterwards, when the answer names the hold.
    var state: WalletHold.State? {
        switch self {
        case .resolved(let hold, _), .replayed(let hold, _), .alreadyResolved(let hold), .exceeds(let hold): hold.state
        case .notFound: nil
        }
    }
}
