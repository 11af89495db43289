import Foundation

/// The products the server knows, keyed by App Store product id. Loaded from a JSON file:
/// `{"products": {"com.example.gold60": {"type": "consumable", "grants": {"gold": 60}}}}`.
public struct ProductCatalog: Sendable, Hashable {
    public private(set) var products: [String: ProductDefinition]

    public init(_ products: [ProductDefinition]) {
        self.products = Dictionary(products.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    }

    public func product(_ id: String) -> ProductDefinition? { products[id] }

    /// Decodes and validates a catalog file's contents, reporting every problem at once: each product id is
    /// non-empty, grants something, and each grant is positive and at most `maxGrant`, so that a grant times Apple's
    /// largest quantity stays inside the wallet's range.
    public init(json: Data) throws(CatalogError) {
        struct File: Decodable {
            struct Entry: Decodable {
                var type: ProductDefinition.Kind
                var grants: Grants
            }
            var products: [String: Entry]
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: json)
        } catch {
            throw CatalogError(
                problems: [
                    "the catalog is not valid JSON of the form {\"products\": {ID: {\"type\", \"grants\"}}}: \(error)"
                ])
        }
        var products: [ProductDefinition] = []
        var problems: [String] = []
        for (id, entry) in file.products.sorted(by: { $0.key < $1.key }) {
            guard !id.isEmpty else {
                problems.append("a product id is empty")
                continue
            }
            if entry.grants.isEmpty { problems.append("product \(id.echoed) grants nothing") }
            for (currency, amount) in entry.grants.sorted
            where currency.isEmpty || amount <= 0 || amount > Self.maxGrant {
                problems.append(
                    "product \(id.echoed) has an invalid grant \(currency.echoed): \(amount) (1 to \(Self.maxGrant), "
                        + "so that \(ProductDefinition.maxQuantity) of it stay within the wallet's range)")
            }
            products.append(ProductDefinition(id: id, type: entry.type, grants: entry.grants))
        }
        if file.products.isEmpty { problems.append("the catalog lists no products") }
        guard problems.isEmpty else { throw CatalogError(problems: problems) }
        self.init(products)
    }

    /// The largest amount one unit of a product may grant of a currency: `Amounts.walletLimit` divided by Apple's
    /// largest quantity (`ProductDefinition.maxQuantity`).
    public static let maxGrant: Int64 = Amounts.walletLimit / Int64(ProductDefinition.maxQuantity)
}

/// A catalog file that cannot be used: every problem found in it.
public struct CatalogError: Error, CustomStringConvertible, Sendable {
    public var problems: [String]
    public init(problems: [String]) { self.problems = problems }
    /// The first problem (kept for callers that show one line).
    public var message: String { problems.first ?? "" }
    public var description: String { "invalid product catalog: " + problems.joined(separator: "; ") }
}
