import Foundation

extension Product {
    /// An option of a purchase: the account token, the quantity.
    public struct PurchaseOption: Sendable, Hashable {
        enum Kind: Sendable, Hashable {
            case appAccountToken(UUID)
            case quantity(Int)
        }

        let kind: Kind

        /// Ties the purchase to the app's account; every transaction of it carries the token.
        public static func appAccountToken(_ token: UUID) -> PurchaseOption {
            PurchaseOption(kind: .appAccountToken(token))
        }

        /// How many units to buy (consumables).
        public static func quantity(_ quantity: Int) -> PurchaseOption { PurchaseOption(kind: .quantity(quantity)) }
    }
}
