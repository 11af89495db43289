import PurserCore
import PurserStorage

extension OrderService {
    /// `user`'s wallet: the balances of the currencies consumables grant, what open holds reserve and what is left to
    /// spend, and the non-consumables they own. A currency that only non-consumables grant (the demo's `noads`) is
    /// shown as the owned products, not as a count.
    public func wallet(of user: UserID) async throws -> WalletResponse {
        async let balances = store.balances(of: user)
        async let owned = store.ownedProductIDs(of: user)
        async let held = store.heldAmounts(of: user, now: now())
        let entitlements = try await owned.filter { catalog.product($0)?.type == .nonConsumable }.sorted()
        let counted = try await balances.filter { !entitlementCurrencies.contains($0.key) }
        let reserved = try await held
        return WalletResponse(
            userId: user, balances: counted, entitlements: entitlements, held: reserved,
            available: try WalletHold.available(balances: counted, held: reserved))
    }

    /// Throws `already_owned` when `user` owns `product`, a non-consumable: Apple would not charge again, so an order
    /// for it could never be paid. A restore re-sends the purchase they own, which the ledger answers as before.
    func refuseIfOwned(_ product: ProductDefinition, by user: UserID) async throws {
        guard product.type == .nonConsumable, try await store.ownedProductIDs(of: user).contains(product.id) else {
            return
        }
        throw ServiceError(.alreadyOwned, "\(user) already owns \(product.id); restore it instead of buying it again")
    }
}
