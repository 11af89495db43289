import Foundation
import PurserWebhooks
import Testing

/// The event body: what the server writes is what a receiver decodes, byte for byte the same on every encoding.
@Suite struct WebhookEventTests {
    static let credited = WebhookEvent(
        type: .transactionCredited, timestamp: Date(timeIntervalSince1970: 1_704_067_200.123),
        transaction: .init(
            transactionId: "2000000000000001", originalTransactionId: "2000000000000001",
            orderId: "8E3F2C1A-0000-4000-8000-000000000001", userId: "alice", productId: "gold60", quantity: 2,
            grants: ["gold": 120], environment: "Sandbox", occurredAt: Date(timeIntervalSince1970: 1_704_067_200.123),
            sequence: 7, cause: .notification))

    @Test func encodesTheStandardStructureDeterministically() throws {
        let body = try Self.credited.body()
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(Set(object.keys) == ["type", "timestamp", "data"])
        #expect(object["type"] as? String == "transaction.credited")
        #expect(object["timestamp"] as? String == "2024-01-01T00:00:00.123Z")
        let data = try #require(object["data"] as? [String: Any])
        #expect(data["cause"] as? String == "notification")
        #expect(data["sequence"] as? Int == 7)
        #expect(data["grants"] as? [String: Int] == ["gold": 120])
        #expect(data["share"] == nil, "absent fields are left out, not null")
        #expect(try Self.credited.body() == body, "the same event encodes to the same bytes")
        #expect(String(decoding: body, as: UTF8.self).hasPrefix(#"{"data":{"cause":"notification","environment""#))
    }

    @Test func decodesWhatItEncodes() throws {
        let decoded = try WebhookEvent.decoder.decode(WebhookEvent.self, from: try Self.credited.body())
        #expect(decoded == Self.credited)
        let test = WebhookEvent(type: .test, timestamp: Date(timeIntervalSince1970: 1_704_067_200), message: "ping")
        #expect(try WebhookEvent.decoder.decode(WebhookEvent.self, from: try test.body()) == test)
    }

    @Test func readsTimestampsWithoutFractionsAndUnknownTypes() throws {
        let body = Data(#"{"type":"order.shipped","timestamp":"2024-01-01T00:00:00Z","data":{"x":1}}"#.utf8)
        let event = try WebhookEvent.decoder.decode(WebhookEvent.self, from: body)
        #expect(event.type.rawValue == "order.shipped")
        #expect(event.timestamp == Date(timeIntervalSince1970: 1_704_067_200))
        #expect(event.transaction == nil)
    }
}
