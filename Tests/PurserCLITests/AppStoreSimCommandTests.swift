import Foundation
import PurserChaos
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `purser appstore-sim --storekit-config FILE`: the simulator sells an Xcode StoreKit configuration's products.
@Suite struct AppStoreSimCommandTests {
    /// A `.storekit` file as Xcode writes one, cut down: one consumable, one non-consumable, keys to ignore.
    static let storeKitFile = """
        {
          "identifier" : "0A1B2C3D", "nonRenewingSubscriptions" : [], "subscriptionGroups" : [],
          "products" : [
            { "displayPrice" : "0.99", "familyShareable" : false, "internalID" : "1",
              "localizations" : [ { "description" : "", "displayName" : "60 Gold", "locale" : "en_US" } ],
              "productID" : "gold60", "referenceName" : "Gold 60", "type" : "Consumable" },
            { "displayPrice" : "2.99", "familyShareable" : false, "internalID" : "2", "localizations" : [],
              "productID" : "noads", "referenceName" : "No Ads", "type" : "NonConsumable" }
          ],
          "settings" : {}, "version" : { "major" : 3, "minor" : 0 }
        }
        """

    @Test func sellsTheStoreKitConfigurationsProducts() async throws {
        let serve = ServeCommandTests()
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Shop.storekit")
        try Self.storeKitFile.write(to: file, atomically: true, encoding: .utf8)
        let process = try await serve.start([
            "appstore-sim", "--port", "0", "--data-dir", directory.appendingPathComponent("data").path,
            "--storekit-config", file.path,
        ])
        defer { if process.isRunning { process.terminate() } }

        var port: String?
        for _ in 0..<300 where port == nil {
            if let match = process.output.firstMatch(of: /listening on 127\.0\.0\.1:(\d+)/) { port = String(match.1) }
            try await Task.sleep(for: .milliseconds(100))
        }
        let base = "http://127.0.0.1:\(try #require(port, "no listening line in: \(process.output)"))/simulator/v1"

        let (listed, catalog) = try await serve.request("GET", "\(base)/products")
        #expect(listed == 200)
        let products = try #require(catalog["products"] as? [[String: Any]])
        #expect(products.compactMap { $0["productId"] as? String } == ["gold60", "noads"])
        #expect(products.last?["type"] as? String == "Non-Consumable")

        let (bought, purchase) = try await serve.request("POST", "\(base)/purchases", json: #"{"productId": "noads"}"#)
        #expect(bought == 201)
        let transaction = try #require(purchase["transaction"] as? [String: Any])
        #expect(transaction["type"] as? String == "Non-Consumable")
        #expect(transaction["price"] as? Int == 2990)
        let (refused, _) = try await serve.request("POST", "\(base)/purchases", json: #"{"productId": "gold120"}"#)
        #expect(refused == 404)
    }

    @Test func refusesAnUnreadableStoreKitConfiguration() async throws {
        let run = try await PurserProcess.run(["appstore-sim", "--storekit-config", "/nonexistent/Shop.storekit"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--storekit-config"))
    }
}
