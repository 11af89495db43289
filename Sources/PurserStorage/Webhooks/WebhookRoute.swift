/// Where the outbox's events go: one endpoint (its URL, which names it in the ledger) and the event types it takes
/// (`nil`: all of them). The delivery worker passes the configured routes; the ledger keeps one delivery per event
/// and endpoint.
public struct WebhookRoute: Hashable, Sendable {
    public var endpoint: String
    public var types: Set<String>?

    public init(endpoint: String, types: Set<String>? = nil) {
        self.endpoint = endpoint
        self.types = types
    }

    /// Whether events of `type` go to this endpoint.
    public func takes(_ type: String) -> Bool { types?.contains(type) ?? true }
}
