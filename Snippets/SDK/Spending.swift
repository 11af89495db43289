// A game with no backend spends its user's currency from the app: journaled first, sent again with the same id
// after a crash or a lost answer, never spent twice.

import Foundation
import Purser

/// The coordinator assembled by hand, given a spend journal in the app's container (the server needs
/// `wallet.clientSpend: true`). `PurchaseCoordinator(server:store:)` makes one of its own.
func makeSpendingCoordinator(api: PurserAPIClient, journal: PurchaseJournal, store: any StoreAdapter) throws
    -> PurchaseCoordinator
{
    let container = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
    let spends = try SpendJournal(url: container.appendingPathComponent("purser-spends.json"))
    return PurchaseCoordinator(api: api, journal: journal, store: store, spends: spends)
}

/// Buys a sword for 50 gold.
func buySword(with coordinator: PurchaseCoordinator) async -> String {
    do throws(SpendError) {
        let result = try await coordinator.spend(["gold": 50], reason: "sword")
        return "Sword bought; \(result.balances["gold", default: 0]) gold left."
    } catch .unsettled(let id, _) {
        // No answer: the spend stays journaled and goes again with the same id at the next launch, login or
        // recovery; its outcome arrives on `spendOutcomes`.
        return "Your purchase is on its way (\(id))."
    } catch {
        return "Not bought: \(error.code)."  // `.refused` (for example insufficient_balance) took nothing
    }
}

/// Grants what a resent spend bought, once the server has answered it.
func listenForSpendOutcomes(of coordinator: PurchaseCoordinator, grant: @escaping @Sendable (SpendResult) -> Void) {
    Task {
        for await outcome in coordinator.spendOutcomes {
            switch outcome {
            case .spent(let result): grant(result)
            case .refused(let id, let code): print("spend \(id) refused: \(code)")
            }
        }
    }
}
