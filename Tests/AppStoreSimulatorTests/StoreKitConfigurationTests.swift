import AppStoreSimulator
import AppStoreVerification
import Foundation
import PurserCore
import Testing

/// The simulator's catalog from an Xcode `.storekit` file.
@Suite("StoreKit configuration catalog")
struct StoreKitConfigurationTests {
    /// A small `.storekit` file as Xcode writes one: keys the simulator reads, and keys it must ignore.
    static let file = Data(
        """
        {
          "identifier" : "5C2F6E7A",
          "nonRenewingSubscriptions" : [],
          "products" : [
            {
              "displayPrice" : "0.99", "familyShareable" : false, "internalID" : "6739180001",
              "localizations" : [ { "description" : "A pouch of gold", "displayName" : "60 Gold", "locale" : "en_US" } ],
              "productID" : "com.example.shop.gold60", "referenceName" : "Gold 60", "type" : "Consumable"
            },
            {
              "displayPrice" : "2.99", "familyShareable" : true, "internalID" : "6739180002",
              "localizations" : [], "productID" : "com.example.shop.noads", "referenceName" : "No Ads",
              "type" : "NonConsumable"
            },
            { "displayPrice" : "4.99", "productID" : "com.example.shop.season", "type" : "NonRenewingSubscription" }
          ],
          "settings" : { "_applicationInternalID" : "6739180000", "_locale" : "en_US", "_storefront" : "USA" },
          "subscriptionGroups" : [],
          "version" : { "major" : 4, "minor" : 0 }
        }
        """.utf8)

    @Test("reads the products it sells, with kind, name and price, and ignores every other key")
    func parse() throws {
        let configuration = try StoreKitConfiguration(data: Self.file)
        #expect(
            configuration.products == [
                .init(id: "com.example.shop.gold60", kind: .consumable, displayName: "60 Gold", price: 0.99),
                .init(id: "com.example.shop.noads", kind: .nonConsumable, displayName: "No Ads", price: 2.99),
            ])
        #expect(configuration.product("com.example.shop.noads")?.priceMilliunits == 2990)
        #expect(configuration.currencyCode == "USD")
        let chinese = String(decoding: Self.file, as: UTF8.self).replacingOccurrences(of: "en_US", with: "zh_CN")
        #expect(try StoreKitConfiguration(data: Data(chinese.utf8)).currencyCode == "CNY", "the prices of _locale")
        #expect(try StoreKitConfiguration(data: Data(#"{"products": []}"#.utf8)).currencyCode == "USD")
        #expect(throws: SimulatorError(.invalidRequest, "")) { try StoreKitConfiguration(data: Data("[1]".utf8)) }
    }

    @Test("with the catalog, the simulator sells only its products, with their type and price")
    func catalogStore() async throws {
        let authority = try SimulatorCertificateAuthority.generate(validity: .standard(now: Date()))
        let store = try SimulatedAppStore(
            signer: JWSSigner(authority: authority),
            configuration: .init(catalog: try StoreKitConfiguration(data: Self.file)))
        let (noads, _) = try await store.purchase(.init(productId: "com.example.shop.noads"))
        #expect(noads.type == "Non-Consumable")
        #expect(noads.price == 2990)
        let (gold, _) = try await store.purchase(.init(productId: "com.example.shop.gold60", quantity: 2))
        #expect(gold.type == "Consumable")
        #expect(gold.price == 1980)
        #expect(gold.currency == "USD", "the catalog's currency")
        await #expect(throws: SimulatorError(.notFound, "")) {
            try await store.purchase(.init(productId: "com.example.shop.season"))
        }
        #expect(await store.purchases().count == 2)
    }
}
