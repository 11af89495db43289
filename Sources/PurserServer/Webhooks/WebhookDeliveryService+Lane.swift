import Foundation
import Logging
import PurserStorage
import ServiceLifecycle

extension WebhookDeliveryService {
    /// What a lane hears from its posts: one post's outcome, or that it may claim again.
    enum LaneEvent: Sendable {
        case attempted(WebhookDelivery.Attempt)
        case claimDue
    }

    /// One endpoint's lane, until the group shuts down. It keeps up to `concurrency` posts in flight and claims more
    /// as they finish, so a post that waits on a slow answer holds up only itself, not the claims behind it. A
    /// claim that found fewer deliveries due than it asked for waits `pollIntervalSeconds` before the next. Outcomes
    /// are recorded before each claim and at least every `4 × concurrency` posts. Once the server is shutting down
    /// it starts no more posts: the posts in flight finish, and the claims not posted yet are given back
    /// (`released`), so another replica posts them at once instead of after the claims expire.
    func lane(_ endpoint: WebhookEndpoint, transport: any WebhookTransport) async {
        let concurrency = settings.concurrency
        let batch = concurrency * 4
        // A claim waits behind at most about (batch / concurrency) time-outs; the claim outlasts that.
        let term = max(settings.claimSeconds, settings.timeoutSeconds * Double(batch / concurrency + 1))
        let clock = ContinuousClock()
        await withTaskGroup(of: LaneEvent.self) { group in
            var queued: ArraySlice<WebhookDelivery.Claim> = []
            var finished: [WebhookDelivery.Attempt] = []
            var inFlight = 0
            var claimAt = clock.now
            var waking = false
            func record() async {
                guard !finished.isEmpty else { return }
                do {
                    try await store.finishWebhookAttempts(finished, holder: holder, now: now())
                } catch {
                    // The claims expire and the deliveries are posted again: at least once, the receiver de-duplicates.
                    logger.error("recording webhook attempts failed", metadata: ["error": "\(error)"])
                }
                finished.removeAll(keepingCapacity: true)
            }
            while running {
                if queued.isEmpty, inFlight < concurrency, clock.now >= claimAt {
                    await record()
                    let limit = batch - inFlight
                    queued = await claim(endpoint, limit: limit, term: term)[...]
                    claimAt = queued.count < limit ? clock.now.advanced(by: pollInterval) : clock.now
                }
                while inFlight < concurrency, running, let claim = queued.popFirst() {
                    group.addTask { .attempted(await self.attempt(claim, to: endpoint, transport: transport)) }
                    inFlight += 1
                }
                guard inFlight > 0 else {
                    await pause(clock.now.duration(to: claimAt))
                    continue
                }
                // With room for more posts and no claim due yet, wake when it is due; with none, the next post's end.
                if queued.isEmpty, inFlight < concurrency, !waking {
                    waking = true
                    group.addTask { [claimAt] in
                        try? await cancelWhenGracefulShutdown { try await Task.sleep(until: claimAt, clock: clock) }
                        return .claimDue
                    }
                }
                switch await group.next() {
                case .attempted(let attempt):
                    inFlight -= 1
                    finished.append(attempt)
                    if finished.count >= batch { await record() }
                case .claimDue: waking = false
                case nil: break
                }
            }
            for claim in queued {
                finished.append(.init(deliveryId: claim.deliveryId, outcome: .released, result: "shutting down"))
            }
            while let event = await group.next() {
                if case .attempted(let attempt) = event { finished.append(attempt) }
            }
            await record()
        }
    }

    /// Up to `limit` of `endpoint`'s due deliveries, claimed for `term` seconds; none when the claim failed.
    private func claim(_ endpoint: WebhookEndpoint, limit: Int, term: Double) async -> [WebhookDelivery.Claim] {
        let at = now()
        do {
            return try await store.claimWebhookDeliveries(
                endpoint: endpoint.name, ordered: endpoint.ordered, holder: holder,
                until: at.addingTimeInterval(term), limit: limit, now: at)
        } catch {
            logger.warning("webhook claim failed; retrying", metadata: ["error": "\(error)"])
            return []
        }
    }
}
