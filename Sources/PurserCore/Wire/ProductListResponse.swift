/// `GET /v1/products`: the products the server credits, with a version that changes whenever the list does
/// (also sent as the `ETag`, so clients refresh with `If-None-Match` and get 304 while nothing changed).
public struct ProductListResponse: Codable, Sendable, Hashable {
    public struct Entry: Codable, Sendable, Hashable {
        public var id: String
        public var type: ProductDefinition.Kind
        /// What one unit grants.
        public var grants: Grants

        public init(id: String, type: ProductDefinition.Kind, grants: Grants) {
            self.id = id
            self.type = type
            self.grants = grants
        }
    }

    public var version: String
    /// Sorted by id.
    public var products: [Entry]

    public init(version: String, products: [Entry]) {
        self.version = version
        self.products = products
    }
}
