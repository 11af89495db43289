import Crypto
import Foundation
import PurserCore

extension ProductListResponse {
    /// The catalog's products sorted by id, with `version` = the first 16 hex digits of the SHA-256 of their
    /// canonical encoding: the same catalog gives the same version on every server and at every start, and any change
    /// to an id, a type or a grant gives another.
    init(catalog: ProductCatalog) {
        let products = catalog.products.values.sorted { $0.id < $1.id }
        let digest = SHA256.hash(data: Self.canonicalEncoding(of: products))
        let version = digest.prefix(8).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
        self.init(
            version: version,
            products: products.map { Entry(id: $0.id, type: $0.type, grants: $0.grants) })
    }

    /// One line per product (sorted by id), its grants sorted by currency; every string is length-prefixed, so no
    /// id or currency can make two different catalogs encode alike. Independent of any JSON encoder's formatting.
    static func canonicalEncoding(of products: [ProductDefinition]) -> Data {
        func field(_ string: String) -> String { "\(string.utf8.count):\(string)" }
        var text = "purser-catalog-v1\n"
        for product in products {
            text += "product \(field(product.id)) \(field(product.type.rawValue))"
            for (currency, amount) in product.grants.sorted {
                text += " \(field(currency))=\(amount)"
            }
            text += "\n"
        }
        return Data(text.utf8)
    }
}
