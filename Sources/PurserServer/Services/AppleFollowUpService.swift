import Logging
import ServiceLifecycle

/// Runs `AppleFollowUps` every `interval` inside `purser serve`: what Apple did not take at once (finishing,
/// account tokens) and app-credited transactions whose grace has passed. With several replicas each run holds the
/// ledger's `apple-follow-ups` lease, so one replica calls Apple at a time.
public struct AppleFollowUpService: Service {
    let followUps: AppleFollowUps
    let interval: Duration
    let lease: LeasedWork
    let logger: Logger

    public init(followUps: AppleFollowUps, interval: Duration, lease: LeasedWork, logger: Logger) {
        self.followUps = followUps
        self.interval = interval
        self.lease = lease
        self.logger = logger
    }

    public func run() async throws {
        await lease.repeatEvery(interval) { [followUps] in
            try await followUps.run()
        } finished: { summary in
            if summary != AppleFollowUps.Summary() {
                logger.info("apple follow-ups", metadata: ["purser.summary": "\(summary)"])
            }
        } failed: { error in
            logger.error("apple follow-ups failed", metadata: ["error": "\(error)"])
        }
    }
}

extension AppleFollowUpService: CustomStringConvertible {
    /// What the service group logs for it (the follow-ups hold Apple's key).
    public var description: String { "AppleFollowUpService(every: \(interval))" }
}
