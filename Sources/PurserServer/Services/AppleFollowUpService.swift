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
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            guard !Task.isShuttingDownGracefully, !Task.isCancelled else { return }
            do {
                let summary = try await cancelWhenGracefulShutdown {
                    try await lease.runIfFree { try await followUps.run() }
                }
                if let summary, summary != AppleFollowUps.Summary() {
                    logger.info("apple follow-ups", metadata: ["purser.summary": "\(summary)"])
                }
            } catch {
                logger.error("apple follow-ups failed", metadata: ["error": "\(error)"])
            }
        }
    }
}
