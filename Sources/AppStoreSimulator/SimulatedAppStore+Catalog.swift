import Foundation

// The simulator's catalog (`Configuration.catalog`, loaded from an Xcode `.storekit` file): with one, it sells only
// those products, and a purchase that names no type or price takes the catalog's.
extension SimulatedAppStore {
    /// The catalog's entry for `productID`; nil when there is no catalog. Throws `notFound` for a product the catalog
    /// does not list.
    func listedProduct(_ productID: String) throws(SimulatorError) -> StoreKitConfiguration.Product? {
        guard let catalog = configuration.catalog else { return nil }
        guard let product = catalog.product(productID) else {
            throw SimulatorError(.notFound, "product \(productID) is not in the simulator's StoreKit configuration")
        }
        return product
    }
}
