import PurserCore

/// The server's product list joined with the store's, kept until the server's list changes (checked with
/// `If-None-Match`, so an unchanged list costs a 304 and no store request).
actor ProductCatalogCache {
    private let api: PurserAPIClient
    private let store: any StoreAdapter
    private var cached: (version: String, products: [PurchasableProduct])?

    init(api: PurserAPIClient, store: any StoreAdapter) {
        self.api = api
        self.store = store
    }

    func products(as session: PurserSession) async throws(ProductCatalogError) -> [PurchasableProduct] {
        let list: ProductListResponse?
        do {
            list = try await api.products(ifNoneMatch: cached?.version, as: session)
        } catch {
            if let cached { return cached.products }
            throw ProductCatalogError(code: error.code, message: error.message)
        }
        guard let list else { return cached?.products ?? [] }
        let storeProducts: [StoreProduct]
        do {
            storeProducts = try await store.products(Set(list.products.map(\.id)))
        } catch {
            throw ProductCatalogError(code: error.reason.code, message: error.description)
        }
        let byID = Dictionary(storeProducts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let joined = list.products.compactMap { entry -> PurchasableProduct? in
            guard let offered = byID[entry.id] else { return nil }
            return PurchasableProduct(
                id: entry.id, kind: entry.type, grants: entry.grants,
                displayName: offered.displayName, displayPrice: offered.displayPrice,
                price: offered.price, currencyCode: offered.currencyCode)
        }
        cached = (list.version, joined)
        return joined
    }
}
