import Purser
import PurserCore
import StoreKitShim
import Testing

/// An app's file that imports Purser, PurserCore and StoreKit names StoreKit's `Product` without a module prefix:
/// Purser's catalog type is `ProductDefinition` (before, "'Product' is ambiguous" stopped the build).
@Suite struct ProductNameTests {
    @Test func storeKitsProductNeedsNoModuleName() {
        #expect(String(reflecting: Product.self) == "StoreKitShim.Product")
        #expect(String(reflecting: ProductDefinition.self) == "PurserCore.ProductDefinition")
    }
}
