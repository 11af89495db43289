import Foundation
import PurserCore
import Testing

@Suite struct ProductCatalogTests {
    @Test func readsACatalogFile() throws {
        let catalog = try ProductCatalog(
            json: Data(
                """
                {"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}},
                              "noads": {"type": "non-consumable", "grants": {"noads": 1}}}}
                """.utf8))
        #expect(
            catalog.product("gold60")
                == ProductDefinition(id: "gold60", type: .consumable, grants: Grants(["gold": 60])))
        #expect(catalog.product("noads")?.type == .nonConsumable)
        #expect(catalog.product("nothing") == nil)
    }

    @Test(arguments: [
        "not json",
        #"{"products": {}}"#,
        #"{"products": {"a": {"type": "subscription", "grants": {"gold": 1}}}}"#,
        #"{"products": {"a": {"type": "consumable", "grants": {}}}}"#,
        #"{"products": {"a": {"type": "consumable", "grants": {"gold": -5}}}}"#,
    ])
    func refusesInvalidCatalogs(_ text: String) throws {
        #expect(throws: CatalogError.self) { try ProductCatalog(json: Data(text.utf8)) }
    }

    @Test func orderIDsAreCaseInsensitiveAndPrintLowerCase() throws {
        let id = try #require(OrderID("0B9D2C9E-6F3C-4B8E-9F6A-2C1D3E4F5A6B"))
        #expect(id == OrderID("0b9d2c9e-6f3c-4b8e-9f6a-2c1d3e4f5a6b"))
        #expect(id.description == "0b9d2c9e-6f3c-4b8e-9f6a-2c1d3e4f5a6b")
        #expect(OrderID("not-a-uuid") == nil)
    }
}
