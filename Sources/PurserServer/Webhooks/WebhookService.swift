import Foundation
import PurserCore
import PurserStorage
import PurserWebhooks

/// What operators do with webhooks (the admin API and `purser webhooks`): list deliveries by status, replay an
/// event (audited with the operator), and send each endpoint a signed `webhook.test` event.
public struct WebhookService: Sendable {
    /// One endpoint's answer to a test event.
    public struct TestResult: Codable, Sendable, Hashable {
        public var url: String
        /// The test event's `webhook-id`.
        public var id: String
        /// Whether the endpoint answered 2xx.
        public var delivered: Bool
        /// The HTTP status, when it answered.
        public var status: Int?
        /// `HTTP 204`, `timed out`, `unreachable: …`.
        public var result: String
    }

    let store: any LedgerStore
    public let endpoints: [WebhookEndpoint]
    let transport: any WebhookTransport
    let timeout: Duration
    let now: @Sendable () -> Date

    /// The most deliveries one listing returns.
    public static let maxLimit = 1_000

    /// Deliveries, newest first: of `status` (`pending`, `failed`, `dead`, `delivered`) or all; `limit` 1...1000
    /// (default 100).
    public func list(status: String?, limit: Int?) async throws -> [WebhookDelivery] {
        let parsed: WebhookDelivery.Status?
        if let status {
            guard let known = WebhookDelivery.Status(rawValue: status) else {
                throw ServiceError(.invalidStatus, "status must be pending, failed, dead or delivered")
            }
            parsed = known
        } else {
            parsed = nil
        }
        let limit = limit ?? 100
        guard (1...Self.maxLimit).contains(limit) else {
            throw ServiceError(.invalidLimit, "limit must be 1 to \(Self.maxLimit)")
        }
        return try await store.webhookDeliveries(status: parsed, limit: limit)
    }

    /// Sends event `id` again to every configured endpoint that takes its type, from the first attempt of the
    /// schedule, whatever its deliveries' state (dead, delivered, failed). Audited with `operator`. To an `ordered`
    /// endpoint it goes in its user's `sequence` order again (`LedgerStore.claimWebhookDeliveries`): after the
    /// user's earlier pending events, before the user's later ones.
    /// Errors: `invalid_event_id` (400), `webhooks_not_configured` (409), `not_found` (404), `event_pruned` (410:
    /// retention dropped its payload).
    public func replay(eventID id: String, operator name: String) async throws -> [WebhookDelivery] {
        try Self.requireEventID(id)
        guard !endpoints.isEmpty else { throw Self.notConfigured }
        let deliveries: [WebhookDelivery]?
        do {
            deliveries = try await store.replayWebhookEvent(id, to: endpoints.map(\.route), operator: name, now: now())
        } catch let error as StorageError where error.code == .pruned {
            throw ServiceError(.eventPruned, error.message)
        }
        guard let deliveries else { throw ServiceError(.notFound, "the outbox has no event \(id.echoed)") }
        return deliveries
    }

    /// Posts a signed `webhook.test` event to every endpoint (nothing is written to the ledger) and reports each
    /// answer. Errors: `webhooks_not_configured` (409).
    public func test() async throws -> [TestResult] {
        guard !endpoints.isEmpty else { throw Self.notConfigured }
        let at = now()
        let id = "evt_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let body = Array(
            try WebhookEvent(type: .test, timestamp: at, message: "a test event from Purser; nothing to apply").body())
        return await withTaskGroup(of: (Int, TestResult).self) { group in
            for (index, endpoint) in endpoints.enumerated() {
                group.addTask {
                    let headers = WebhookSignature.headers(id: id, body: body, secrets: endpoint.secrets, now: at)
                    let result = await transport.post(body, headers: headers, to: endpoint.url, timeout: timeout)
                    var status: Int?
                    if case .answered(let code, _) = result { status = code }
                    return (
                        index,
                        TestResult(
                            url: endpoint.name, id: id, delivered: result.isSuccess, status: status,
                            result: "\(result)")
                    )
                }
            }
            var results: [(Int, TestResult)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// `evt_` and 1 to 160 letters, digits, `_` or `-`: the ids the outbox writes.
    static func requireEventID(_ id: String) throws {
        let rest = id.utf8.dropFirst(4)
        guard id.hasPrefix("evt_"), (1...160).contains(rest.count),
            rest.allSatisfy({ byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "_")
                    || byte == UInt8(ascii: "-")
            })
        else {
            throw ServiceError(.invalidEventID, "an event id is evt_ followed by 1 to 160 letters, digits, _ or -")
        }
    }

    static let notConfigured = ServiceError(
        .webhooksNotConfigured, "no webhook endpoint is configured (webhooks.endpoints)")
}
