import Foundation
import PurserCore
import Testing

/// `POST /v1/orders` answers a time-ordered id (UUID version 7): its first 48 bits are the order's `createdAt` in
/// milliseconds, so orders made later have ids that sort later (the ledger's order index grows at one end).
@Suite struct OrderIdentityTests {
    @Test func anOrdersIdCarriesItsCreationTime() async throws {
        try await TestServer.run { server, client in
            var orders: [OrderResponse] = []
            for user in ["ada", "bo", "cy"] {
                orders.append(try await server.order("gold60", for: user, client: client))
                try await Task.sleep(for: .milliseconds(2))
            }
            for order in orders {
                let bytes = withUnsafeBytes(of: order.orderId.uuid.uuid) { Array($0) }
                let millis = bytes[0..<6].reduce(Int64(0)) { $0 << 8 | Int64($1) }
                #expect(bytes[6] >> 4 == 7, "version 7: \(order.orderId)")
                // `createdAt` goes over the wire in whole seconds.
                #expect(millis / 1000 == Int64(order.createdAt.timeIntervalSince1970.rounded(.down)), "\(order)")
                #expect(order.appAccountToken == order.orderId.description)
            }
            let ids = orders.map(\.orderId.description)
            #expect(ids == ids.sorted(), "\(ids)")
        }
    }
}
