import AppStoreSimulator
import Foundation

/// StoreKit 2's product, for the members Purser's adapter uses, with Apple's isolation: `purchase(options:)` runs on
/// the main actor (and does not exist on visionOS, where a purchase needs a scene).
public struct Product: Sendable, Hashable, Identifiable {
    public let id: String
    public let displayName: String
    public let displayPrice: String
    /// The price as a number, in `priceFormatStyle`'s currency.
    public let price: Decimal
    /// How StoreKit formats the price: its currency code is the storefront's (the simulator's is US dollars).
    public let priceFormatStyle: Decimal.FormatStyle.Currency
    let process: SimulatedProcess

    /// The products the App Store knows among `identifiers`. An offline device throws
    /// `StoreKitError.networkError`, as a real one does.
    public static func products<Identifiers: Collection>(for identifiers: Identifiers) async throws -> [Product]
    where Identifiers.Element == String {
        guard let process = SimulatedProcess.current else { throw StoreKitError.unknown }
        guard !process.device.isOffline else { throw StoreKitError.networkError(URLError(.notConnectedToInternet)) }
        return process.device.products(identifiers).map { product in
            Product(
                id: product.id, displayName: product.displayName, displayPrice: product.displayPrice,
                price: product.price, priceFormatStyle: .currency(code: product.currencyCode), process: process)
        }
    }

    /// Shows the payment sheet and waits for the outcome. A cancelled sheet answers `userCancelled`; payments that
    /// cannot be made throw `PurchaseError`; an offline device throws `StoreKitError.networkError`.
    @available(visionOS, unavailable, message: "Use purchase(confirmIn:options:)")
    @MainActor
    public func purchase(options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult {
        var token: UUID?
        var quantity = 1
        for option in options {
            switch option.kind {
            case .appAccountToken(let value): token = value
            case .quantity(let value): quantity = value
            }
        }
        guard (1...10).contains(quantity) else { throw PurchaseError.invalidQuantity }
        switch await process.device.purchase(process, productID: id, quantity: quantity, appAccountToken: token) {
        case .purchased(let entry): return .success(.verified(Transaction(entry, process: process)))
        case .pending: return .pending
        case .userCancelled: return .userCancelled
        case .failed(.productUnavailable): throw PurchaseError.productUnavailable
        case .failed(.notAllowed): throw PurchaseError.purchaseNotAllowed
        case .failed(.network): throw StoreKitError.networkError(URLError(.notConnectedToInternet))
        case .failed(.cancelled): return .userCancelled
        case .failed(.unknown): throw StoreKitError.unknown
        }
    }
}
