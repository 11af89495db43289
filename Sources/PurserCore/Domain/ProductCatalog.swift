import Foundation

/// The products the server knows, keyed by App Store product id. Loaded from a JSON file:
/// `{"products": {"com.example.gold60": {"type": "consumable", "grants": {"gold": 60}}}}`.
public struct ProductCatalog: Sendable, Hashable {
    public private(set) var products: [String: ProductDefinition]

    public init(_ products: [ProductDefinition]) {
        self.products = Dictionary(products.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    }

    public func product(_ id: String) -> ProductDefinition? { products[id] }

    /// Decodes and validates a catalog file's contents.
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
                message:
                    "the catalog is not valid JSON of the form {\"products\": {ID: {\"type\", \"grants\"}}}: \(error)")
        }
        var products: [ProductDefinition] = []
        for (id, entry) in file.products.sorted(by: { $0.key < $1.key }) {
            guard !id.isEmpty else { throw CatalogError(message: "a product id is empty") }
            guard !entry.grants.isEmpty else { throw CatalogError(message: "product \(id) grants nothing") }
            if let bad = entry.grants.amounts.first(where: { $0.value <= 0 || $0.key.isEmpty }) {
                throw CatalogError(message: "product \(id) has an invalid grant \(bad.key): \(bad.value)")
            }
            products.append(ProductDefinition(id: id, type: entry.type, grants: entry.grants))
        }
        guard !products.isEmpty else { throw CatalogError(message: "the catalog lists no products") }
        self.init(products)
    }
}

/// A catalog file that cannot be used; the message says why.
public struct CatalogError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { "invalid product catalog: \(message)" }
}
