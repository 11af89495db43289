import AsyncHTTPClient
import Foundation
import Logging
import Metrics
import PurserStorage
import ServiceLifecycle

/// Delivers the ledger's outbox to the configured endpoints, at least once, and loses nothing: a `Service` in the
/// server's group. One loop fans new events out to the endpoints (a delivery per event and endpoint); one lane per
/// endpoint claims its due deliveries (`claimWebhookDeliveries`: with several replicas each delivery is posted by
/// one of them at a time, and a killed replica's claim is taken over once it expires), posts them signed per
/// Standard Webhooks with at most `concurrency` in flight and `timeoutSeconds` each, marks 2xx delivered and
/// reschedules anything else on the retry schedule, with jitter, until it is spent: then the event is dead. An
/// `ordered` endpoint's claim holds back a user's event until the user's earlier events are delivered or dead, so
/// each user's events reach it in `sequence` order. All state is in the ledger, next to the credit.
public struct WebhookDeliveryService: Service {
    let store: any LedgerStore
    let endpoints: [WebhookEndpoint]
    let settings: ServerConfiguration.Webhooks
    let schedule: WebhookRetrySchedule
    let jitter: WebhookJitter
    /// Who claims: unique per process, so a replica's claims are told from another's.
    let holder: String
    /// `nil`: an AsyncHTTPClient of the service's own, for as long as it runs.
    let transport: (any WebhookTransport)?
    let logger: Logger
    let now: @Sendable () -> Date

    /// Events fanned out per ledger transaction.
    static let dispatchBatch = 500

    public init(
        store: any LedgerStore, endpoints: [WebhookEndpoint], settings: ServerConfiguration.Webhooks,
        jitter: WebhookJitter, holder: String, transport: (any WebhookTransport)? = nil, logger: Logger,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.endpoints = endpoints
        self.settings = settings
        self.schedule = settings.retrySeconds.map(WebhookRetrySchedule.init) ?? .standard
        self.jitter = jitter
        self.holder = holder
        self.transport = transport
        self.logger = logger
        self.now = now
    }

    public func run() async throws {
        if let transport {
            await deliver(with: transport)
            return
        }
        let client = HTTPClientWebhookTransport.makeClient(
            connectionsPerEndpoint: settings.concurrency, timeout: timeout)
        await deliver(with: HTTPClientWebhookTransport(client: client))
        try? await client.shutdown()
    }

    /// The fan-out loop and one lane per endpoint, until the group shuts down.
    func deliver(with transport: any WebhookTransport) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await dispatchLoop() }
            for endpoint in endpoints {
                group.addTask { await lane(endpoint, transport: transport) }
            }
        }
    }

    var running: Bool { !Task.isShuttingDownGracefully && !Task.isCancelled }
    var timeout: Duration { .milliseconds(Int64(settings.timeoutSeconds * 1000)) }
    var pollInterval: Duration { .milliseconds(Int64(settings.pollIntervalSeconds * 1000)) }

    /// Waits `interval`, or less when the group shuts down.
    func pause(_ interval: Duration) async {
        try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
    }

    private func dispatchLoop() async {
        let routes = endpoints.map(\.route)
        while running {
            do {
                let taken = try await store.dispatchWebhookEvents(
                    to: routes, limit: Self.dispatchBatch, now: now())
                if taken == Self.dispatchBatch { continue }
            } catch {
                logger.warning("webhook fan-out failed; retrying", metadata: ["error": "\(error)"])
            }
            await pause(pollInterval)
        }
    }
}

extension WebhookDeliveryService: CustomStringConvertible {
    /// What the service group logs for it: no endpoint's secret (nor its URL, which may carry credentials).
    public var description: String { "WebhookDeliveryService(endpoints: \(endpoints.count))" }
}
