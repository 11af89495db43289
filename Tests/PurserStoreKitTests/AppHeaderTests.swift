import Foundation
import Purser
import PurserChaos
import PurserCore
import PurserStorage
import Testing

/// The SDK names its app with `X-Purser-App`; a Purser that does not serve that app refuses the request with 404
/// `unknown_app` before anything is written, and one without the header is the configured app's.
@Suite struct AppHeaderTests {
    @Test func theServerRefusesAnAppItDoesNotServe() async throws {
        try await LiveServer.run { server in
            let session = PurserSession(userID: "ann", authorization: .development)
            let own = PurserAPIClient(baseURL: server.url, app: ChaosServer.bundleID)
            let order = try await own.createOrder(productID: "gold60", quantity: 1, as: session)
            #expect(order.state == .created)
            #expect(try await PurserAPIClient(baseURL: server.url, app: nil).wallet(as: session).balances.isEmpty)

            let other = PurserAPIClient(baseURL: server.url, app: "com.example.another-game")
            let refused = await #expect(throws: PurserAPIError.self) {
                try await other.createOrder(productID: "gold60", quantity: 1, as: session)
            }
            #expect(refused?.code == "unknown_app" && refused?.status == 404, "\(String(describing: refused))")
            #expect(try await server.store.purchases(of: "ann", limit: 10).orders.count == 1)
        }
    }
}
