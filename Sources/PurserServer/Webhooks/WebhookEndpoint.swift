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

    /// Checks one configured endpoint, the `index`-th of `scope`'s list (`webhooks`, or an app's
    /// `apps.N.webhooks`), for messages that name its key and the variable that sets its secret, never a secret.
    /// - Throws: `ConfigurationError` with every problem, each naming the key: a URL that is not absolute http(s), no
    ///   secret, a secret that is not `whsec_` and base64 of 24 to 64 bytes, an unknown event type.
    public init(
        _ configured: ServerConfiguration.Webhooks.Endpoint, index: Int, scope: String = "webhooks"
    ) throws(ConfigurationError) {
        let key = "\(scope).endpoints[\(index)]"
        var problems: [String] = []
        let url = URL(string: configured.url)
        if url.map(Self.isHTTP) != true {
            problems.append("\(key).url must be an absolute http or https URL, not \(configured.url)")
        }
        if configured.secrets.isEmpty {
            let variable = ServerConfiguration.environmentVariable(forKey: "\(scope).endpoints.\(index).secret")
            problems.append("\(key) needs a secret (secret or secrets, or \(variable))")
        }
        var secrets: [WebhookSecret] = []
        for (position, secret) in configured.secrets.enumerated() {
            do {
                secrets.append(try WebhookSecret(secret))
            } catch {
                problems.append("\(key) secret \(position + 1): \(error.message)")
            }
        }
        let known = Set(WebhookEvent.EventType.subscribable.map(\.rawValue))
        for unknown in configured.events ?? [] where !known.contains(unknown) {
            problems.append("\(key).events: \(unknown) is not one of \(known.sorted().joined(separator: ", "))")
        }
        guard problems.isEmpty, let url else { throw ConfigurationError(problems) }
        self.url = url
        self.secrets = secrets
        self.types = configured.events.map(Set.init)
        self.ordered = configured.ordered
    }

    /// Whether `url` is absolute http or https with a host.
    private static func isHTTP(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), let host = url.host else { return false }
        return (scheme == "http" || scheme == "https") && !host.isEmpty
    }
}

extension ServerConfiguration.Webhooks {
    /// Every configured endpoint, checked (`scope` names the list in messages: `webhooks`, or an app's
    /// `apps.N.webhooks`); two endpoints with one URL are an error (the URL names it in the ledger).
    /// - Throws: `ConfigurationError` with every problem of every endpoint.
    public func checkedEndpoints(scope: String = "webhooks") throws(ConfigurationError) -> [WebhookEndpoint] {
        var checked: [WebhookEndpoint] = []
        var problems: [String] = []
        for (index, endpoint) in endpoints.enumerated() {
            do {
                let endpoint = try WebhookEndpoint(endpoint, index: index, scope: scope)
                guard !checked.contains(where: { $0.name == endpoint.name }) else {
                    problems.append("\(scope).endpoints[\(index)].url repeats an earlier endpoint's URL")
                    continue
                }
                checked.append(endpoint)
            } catch {
                problems += error.problems
            }
        }
        guard problems.isEmpty else { throw ConfigurationError(problems) }
        return checked
    }

    /// The pacing of every app's deliveries: `timeoutSeconds`, `concurrency`, `pollIntervalSeconds` and
    /// `claimSeconds` positive.
    func checkPacing() throws(ConfigurationError) {
        guard timeoutSeconds > 0, concurrency > 0, pollIntervalSeconds > 0, claimSeconds > 0 else {
            throw ConfigurationError(
                "webhooks.timeoutSeconds, .concurrency, .pollIntervalSeconds and .claimSeconds must be positive")
        }
    }
}
