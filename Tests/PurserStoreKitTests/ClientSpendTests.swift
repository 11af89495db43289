import Foundation
import Purser
import PurserChaos
import PurserCore
import Testing

/// The SDK's `spend` against a live server (`wallet.clientSpend` on): the id is journaled before the request, so a
/// spend whose answer was lost, in an app killed before it heard, is resent at the next launch and taken once.
@Suite("Spending from the app: exactly once across a lost answer and a crash")
struct ClientSpendTests {
    @Test("the answer lost and the app killed: the next launch resends it, and the gold is taken once")
    func lostAnswerThenCrash() async throws {
        try await SimulatedApp.run(.storeKit2) { app, server in
            let first = try await app.launch(user: "alice")
            _ = try await first.buy("gold60")
            #expect(try await server.balance("alice") == 60)

            server.network.inject([.responseLost], on: "/v1/wallet/spend")
            guard case .failure(.unsettled(let id, _)) = await first.spend(["gold": 25], reason: "sword", id: "sw-1")
            else {
                Issue.record("a lost answer is unsettled")
                return
            }
            #expect(id == "sw-1")
            #expect(try await server.balance("alice") == 35, "the server applied it; the app never heard")
            #expect(try await SpendJournal(url: app.app.spendJournalURL).all.map(\.id) == ["sw-1"])
            await first.kill()

            let second = try await app.launch(user: "alice")
            guard case .spent(let result) = await second.spendOutcome("sw-1") else {
                Issue.record("the relaunched app resends the journaled spend")
                return
            }
            #expect(result.replayed && result.spent == ["gold": 25] && result.balances == ["gold": 35])
            #expect(try await server.balance("alice") == 35, "taken once")
            #expect(try await SpendJournal(url: app.app.spendJournalURL).all.isEmpty)

            // The game asks again by the same id: a replay, nothing more taken.
            let again = try await second.spend(["gold": 25], reason: "sword", id: "sw-1").get()
            #expect(again.replayed && again.balances == ["gold": 35])
            #expect(try await server.balance("alice") == 35)
        }
    }

    @Test("a spend the balance cannot cover is refused, takes nothing and leaves nothing to resend")
    func refusedSpend() async throws {
        try await SimulatedApp.run(.storeKit2) { app, server in
            let run = try await app.launch(user: "bob")
            _ = try await run.buy("gold60")
            guard case .failure(.refused(let error)) = await run.spend(["gold": 61], reason: "castle", id: "c-1") else {
                Issue.record("61 of 60 gold is refused")
                return
            }
            #expect(error.code == "insufficient_balance")
            #expect(try await server.balance("bob") == 60)
            #expect(try await SpendJournal(url: app.app.spendJournalURL).all.isEmpty)
            let spent = try await run.spend(["gold": 60], reason: "castle", id: "c-2").get()
            #expect(!spent.replayed && spent.balances == ["gold": 0])
            guard case .failure(.invalidAmounts) = await run.spend(["gold": -5], reason: "mint", id: "m-1") else {
                Issue.record("the SDK takes what to spend as positive amounts")
                return
            }
        }
    }
}
