import Foundation
import HummingbirdTesting
import PurserCore
import PurserServer
import Testing

/// `orderHint.maxAgeSeconds` bounds how long before a token-less purchase the submitter's hinted order may have been
/// made and still bind it.
@Suite struct OrderHintWindowTests {
    /// Alice orders, pays 1.5 s later without a token, and submits with the order as the hint.
    func expectTokenlessPurchase(
        maxAge: Double?, decision: String, wallet: [String: Int64], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await TestServer.run { configuration in
            if let maxAge { configuration.orderHint.maxAgeSeconds = maxAge }
        } _: { server, client in
            let order = try await server.order("gold60", for: "alice", client: client)
            try await Task.sleep(for: .milliseconds(1500))
            let (_, jws) = try await server.pay("gold60", token: nil)
            let answer = try await client.submit(jws, user: "alice", orderId: order.orderId.description)
                .decode(DecisionResponse.self)
            #expect(answer.decision == decision, sourceLocation: sourceLocation)
            #expect(try await client.wallet("alice") == wallet, sourceLocation: sourceLocation)
        }
    }

    @Test func anOrderOlderThanTheWindowDoesNotBindATokenlessPurchase() async throws {
        // The order was made 1.5 s before the purchase: outside a 1 s window, inside the default day.
        try await expectTokenlessPurchase(maxAge: 1, decision: "pending", wallet: [:])
        try await expectTokenlessPurchase(maxAge: nil, decision: "delivered", wallet: ["gold": 60])
    }
}
