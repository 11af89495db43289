import Foundation
import PurserCore

/// The products of an Xcode StoreKit configuration file (`.storekit`): the simulator sells them, at their prices, as
/// the app sees them in Xcode's StoreKit testing. The file is plain JSON; only `products[].productID`, `.type`
/// (`Consumable`, `NonConsumable`), `.displayPrice`, `.referenceName`, `.localizations[].displayName` and
/// `settings._locale` (whose region gives the prices' currency) are read, and every other key (subscription groups,
/// versions) is ignored. Subscriptions are out of Purser's scope
/// and left out.
public struct StoreKitConfiguration: Sendable, Hashable {
    /// One product the file declares.
    public struct Product: Sendable, Hashable {
        public var id: String
        public var kind: PurserCore.ProductDefinition.Kind
        public var displayName: String
        /// The price in the file's currency, e.g. 0.99; nil when the file gives none or it does not parse.
        public var price: Decimal?

        public init(id: String, kind: PurserCore.ProductDefinition.Kind, displayName: String, price: Decimal?) {
            self.id = id
            self.kind = kind
            self.displayName = displayName
            self.price = price
        }

        /// The price in milliunits (990 for 0.99), as signed transactions carry it.
        public var priceMilliunits: Int64? {
            price.map { NSDecimalNumber(decimal: $0 * 1000).int64Value }
        }
    }

    public var products: [Product]
    /// The ISO 4217 code of the prices' currency: that of the file's `settings._locale` (Xcode's storefront locale,
    /// `zh_CN` → `CNY`), `USD` without one.
    public var currencyCode: String

    public init(products: [Product], currencyCode: String = "USD") {
        self.products = products
        self.currencyCode = currencyCode
    }

    /// Reads `url`.
    public init(contentsOf url: URL) throws(SimulatorError) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw SimulatorError(.invalidRequest, "cannot read the StoreKit configuration \(url.path): \(error)")
        }
        try self.init(data: data)
    }

    /// Parses a `.storekit` file's JSON.
    public init(data: Data) throws(SimulatorError) {
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch {
            throw SimulatorError(.invalidRequest, "not a StoreKit configuration file: \(error)")
        }
        products = (file.products ?? []).compactMap { entry in
            guard let kind = Self.kinds[entry.type] else { return nil }
            let name =
                entry.localizations?.lazy.compactMap(\.displayName).first ?? entry.referenceName ?? entry.productID
            return Product(
                id: entry.productID, kind: kind, displayName: name,
                price: entry.displayPrice.flatMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) })
        }
        currencyCode = file.settings?.locale.flatMap { Locale(identifier: $0).currency?.identifier } ?? "USD"
    }

    /// The product with `id`, if the file declares it.
    public func product(_ id: String) -> Product? {
        products.first { $0.id == id }
    }

    /// Xcode's spelling of the kinds Purser sells.
    private static let kinds: [String: PurserCore.ProductDefinition.Kind] = [
        "Consumable": .consumable, "NonConsumable": .nonConsumable,
    ]

    private struct File: Decodable {
        var products: [Entry]?
        var settings: Settings?
    }

    private struct Settings: Decodable {
        var locale: String?
        enum CodingKeys: String, CodingKey { case locale = "_locale" }
    }

    private struct Entry: Decodable {
        var productID: String
        var type: String
        var displayPrice: String?
        var referenceName: String?
        var localizations: [Localization]?
    }

    private struct Localization: Decodable {
        var displayName: String?
    }
}
