import AppStoreSimulator
import AppStoreVerification
import Foundation
import HTTPTypes
import HummingbirdTesting
import PurserCore
import PurserServer
import PurserStorage
import Testing

/// Notification types Purser does not act on (RESCIND_CONSENT, whose app metadata is in `appData`, and types newer
/// than this code, with fields and values it has never seen) are recorded once and acknowledged with 200; nothing
/// else changes.
@Suite struct UnactedNotificationTests {
    /// A notification payload with whatever shape a test needs, signed by the simulator like Apple's.
    func sign(_ fields: [String: Any], by server: TestServer) throws -> String {
        struct Raw: Encodable {
            var json: Data
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(try JSONDecoder().decode(AnyJSON.self, from: json))
            }
        }
        return try server.appStore.signer.sign(Raw(json: try JSONSerialization.data(withJSONObject: fields)))
    }

    func post(_ client: some TestClientProtocol, _ signedPayload: String) async throws -> TestResponse {
        try await client.post("/v1/appstore/notifications", user: nil, json: ["signedPayload": signedPayload])
    }

    @Test func rescindConsentAndFutureTypesAreRecordedAndAcknowledged() async throws {
        try await TestServer.run { server, client in
            let now = Date().appStoreMilliseconds
            let rescind = try sign(
                [
                    "notificationType": "RESCIND_CONSENT", "notificationUUID": "8a2b1c3d-0000-4000-8000-000000000001",
                    "version": "2.0", "signedDate": now,
                    "appData": [
                        "appAppleId": 1234, "bundleId": TestServer.bundleID, "environment": "Sandbox",
                        "signedAppTransactionInfo": "not-read-by-purser",
                    ],
                ], by: server)
            let future = try sign(
                [
                    "notificationType": "SOMETHING_APPLE_ADDS_IN_2027", "subtype": "NEVER_SEEN",
                    "notificationUUID": "8a2b1c3d-0000-4000-8000-000000000002", "version": "2.1", "signedDate": now,
                    "somethingNew": ["nested": [1, 2, 3], "flag": true],
                ], by: server)
            for (payload, uuid) in [
                (rescind, "8a2b1c3d-0000-4000-8000-000000000001"), (future, "8a2b1c3d-0000-4000-8000-000000000002"),
            ] {
                let response = try await post(client, payload)
                #expect(response.status == .ok)
                let outcome = try response.decode(NotificationService.Outcome.self)
                #expect(outcome.notificationUUID == uuid)
                #expect(outcome.result == "recorded (no transaction)")
                #expect(try await server.store.processedNotifications(among: [uuid]) == [uuid])
                let again = try await post(client, payload).decode(NotificationService.Outcome.self)
                #expect(again.duplicate)
            }
            #expect(try await server.store.statistics().grants == 0)
        }
    }

    @Test func anUnknownTypeAboutATransactionIsRecordedWithoutCrediting() async throws {
        try await TestServer.run { server, client in
            let (id, _) = try await server.pay("gold60", token: nil)
            try await server.appStore.notify("PRICE_INCREASE_FOR_A_CONSUMABLE", transactionID: id)
            let payload = try #require(try await server.appStore.notificationHistory().last?.signedPayload)
            let response = try await post(client, payload)
            #expect(response.status == .ok)
            #expect(try response.decode(NotificationService.Outcome.self).result == "recorded")
            #expect(try await server.store.transaction(id) == nil)
        }
    }
}

/// Any JSON value, decoded and encoded as it is.
enum AnyJSON: Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([AnyJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: AnyJSON].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value == value.rounded(), abs(value) < 1e15 {
                try container.encode(Int64(value))
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
