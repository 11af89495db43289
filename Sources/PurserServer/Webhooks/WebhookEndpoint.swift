import Foundation
import PurserStorage
import PurserWebhooks

/// A configured receiver, checked: an absolute http(s) URL, at least one well-formed secret, known event types.
public struct WebhookEndpoint: Sendable, Hashable {
    public let url: URL
    /// Every active secret; each signs every attempt.
    public let secrets: [WebhookSecret]
    /// The event types it takes; `nil`: all.
    public let types: Set<String>?
    /// Whether one user's events are delivered to it one at a time, in `sequence` order.
    public let ordered: Bool

    /// The endpoint's name in the ledger: its URL as configured.
    public var name: String { url.absoluteString }

    /// The ledger's view of it.
    public var route: WebhookRoute { WebhookRoute(endpoint: name, types: types) }

    /// Checks one configured endpoint (the `index`-th, for messages that never show a secret).
    /// - Throws: `ConfigurationError` naming the key: a URL that is not absolute http(s), no secret, a secret that
    ///   is not `whsec_` and base64 of 24 to 64 bytes, an unknown event type.
    public init(_ configured: ServerConfiguration.Webhooks.Endpoint, index: Int) throws(ConfigurationError) {
        let key = "webhooks.endpoints[\(index)]"
        guard let url = URL(string: configured.url), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else {
            throw ConfigurationError("\(key).url must be an absolute http or https URL, not \(configured.url)")
        }
        guard !configured.secrets.isEmpty else {
            throw ConfigurationError(
                "\(key) needs a secret (secret or secrets, or PURSER_WEBHOOKS_ENDPOINTS_\(index)_SECRET)")
        }
        var secrets: [WebhookSecret] = []
        for (position, secret) in configured.secrets.enumerated() {
            do {
                secrets.append(try WebhookSecret(secret))
            } catch {
                throw ConfigurationError("\(key) secret \(position + 1): \(error.message)")
            }
        }
        let known = Set(WebhookEvent.EventType.subscribable.map(\.rawValue))
        if let events = configured.events, let unknown = events.first(where: { !known.contains($0) }) {
            throw ConfigurationError(
                "\(key).events: \(unknown) is not one of \(known.sorted().joined(separator: ", "))")
        }
        self.url = url
        self.secrets = secrets
        self.types = configured.events.map(Set.init)
        self.ordered = configured.ordered
    }
}

extension ServerConfiguration.Webhooks {
    /// Every configured endpoint, checked; two endpoints with one URL are an error (the URL names it in the ledger).
    public func checkedEndpoints() throws(ConfigurationError) -> [WebhookEndpoint] {
        var checked: [WebhookEndpoint] = []
        for (index, endpoint) in endpoints.enumerated() {
            let endpoint = try WebhookEndpoint(endpoint, index: index)
            guard !checked.contains(where: { $0.name == endpoint.name }) else {
                throw ConfigurationError("webhooks.endpoints[\(index)].url repeats an earlier endpoint's URL")
            }
            checked.append(endpoint)
        }
        guard timeoutSeconds > 0, concurrency > 0, pollIntervalSeconds > 0, claimSeconds > 0 else {
            throw ConfigurationError(
                "webhooks.timeoutSeconds, .concurrency, .pollIntervalSeconds and .claimSeconds must be positive")
        }
        return checked
    }
}
