import Foundation
import PurserChaos
import Testing

/// The simulator inside `purser serve` sells Purser's catalog as the catalog says.
extension ServeCommandTests {
    /// A non-consumable bought through `POST /simulator/v1/purchases`, as the README's tour shows, is signed as one and
    /// credited: it was once signed Consumable and rejected with `product_type_mismatch` (paid, nothing delivered).
    @Test func theHostedSimulatorSignsTheCatalogsType() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try #"""
        {"products": {"gold60": {"type": "consumable", "grants": {"gold": 60}},
                      "noads": {"type": "non-consumable", "grants": {"noads": 1}}}}
        """#.write(to: directory.appendingPathComponent("catalog.json"), atomically: true, encoding: .utf8)
        let file = directory.appendingPathComponent("purser.json")
        try
            #"{"port": 0, "dataDirectory": "data", "catalogFile": "catalog.json", "appStore": "simulator", "auth": {"mode": "development"}}"#
            .write(to: file, atomically: true, encoding: .utf8)
        let (process, port) = try await launch(["serve", "--config", file.path], environment: [:])
        defer { process.terminate() }
        let base = "http://127.0.0.1:\(port)"
        for (product, type) in [("noads", "Non-Consumable"), ("gold60", "Consumable")] {
            let (_, order) = try await request(
                "POST", "\(base)/v1/orders", user: "ivy", json: #"{"productId": "\#(product)"}"#)
            let token = try #require(order["appAccountToken"] as? String)
            let (_, purchase) = try await request(
                "POST", "\(base)/simulator/v1/purchases",
                json: #"{"productId": "\#(product)", "appAccountToken": "\#(token)"}"#)
            #expect((purchase["transaction"] as? [String: Any])?["type"] as? String == type, "\(purchase)")
            let jws = try #require(purchase["signedTransaction"] as? String)
            let (_, decision) = try await request(
                "POST", "\(base)/v1/transactions", user: "ivy", json: #"{"signedTransaction": "\#(jws)"}"#)
            #expect(["delivered", "alreadyDelivered"].contains(decision["decision"] as? String ?? ""), "\(decision)")
        }
        let (_, wallet) = try await request("GET", "\(base)/v1/wallet", user: "ivy")
        #expect((wallet["balances"] as? [String: Int]) == ["gold": 60], "\(wallet)")
        #expect((wallet["entitlements"] as? [String]) == ["noads"], "\(wallet)")
    }
}
