import AppStoreVerification
import Foundation
import Logging
import PurserCore
import PurserStorage

/// What Purser tells Apple after a credit, best effort: Finish Transaction for a credit no app will finish (a
/// notification, reconciliation or support credited it) or one the app has not been seen to finish after
/// `finishing.afterSeconds`, and Set App Account Token when an order hint or an operator bound a transaction Apple's
/// record does not name the owner of. The ledger remembers what is owed (`AppleFollowUp`), so a call Apple did not
/// take is retried by `run` (the periodic `AppleFollowUpService`); one Apple refuses for good (a 4xx other than 429)
/// is logged and not retried. Nothing here changes a decision: a failure never undoes or delays a credit.
public struct AppleFollowUps: Sendable {
    /// What one run did.
    public struct Summary: Codable, Sendable, Hashable, CustomStringConvertible {
        public var finished = 0
        public var tokensWritten = 0
        /// Calls Apple did not take now; retried next run.
        public var deferred = 0
        /// Calls Apple refused for good; not retried.
        public var refused = 0

        public init(finished: Int = 0, tokensWritten: Int = 0, deferred: Int = 0, refused: Int = 0) {
            self.finished = finished
            self.tokensWritten = tokensWritten
            self.deferred = deferred
            self.refused = refused
        }

        public var description: String {
            "finished \(finished), tokens written \(tokensWritten), deferred \(deferred), refused \(refused)"
        }
    }

    let store: any LedgerStore
    let api: AppStoreServerAPIClient
    /// Asked about sandbox transactions when the production client does not answer for both.
    let sandboxAPI: AppStoreServerAPIClient?
    /// How long after an app's own credit the server finishes the transaction itself.
    let clientGrace: TimeInterval
    let logger: Logger
    let now: @Sendable () -> Date

    public init(
        store: any LedgerStore, api: AppStoreServerAPIClient, sandboxAPI: AppStoreServerAPIClient? = nil,
        clientGrace: TimeInterval, logger: Logger, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.api = api
        self.sandboxAPI = sandboxAPI
        self.clientGrace = clientGrace
        self.logger = logger
        self.now = now
    }

    /// Everything owed now, up to `limit` transactions, least recently changed first.
    public func run(limit: Int = 200) async throws -> Summary {
        var summary = Summary()
        let due = try await store.appleFollowUps(
            clientCreditedBefore: now().addingTimeInterval(-clientGrace), limit: limit)
        for followUp in due {
            guard !Task.isCancelled else { break }
            summary.add(await perform(followUp))
        }
        return summary
    }

    /// Tells Apple what `followUp` owes and records what Apple took. Never throws: a failure stays owed.
    @discardableResult
    public func perform(_ followUp: AppleFollowUp) async -> Summary {
        let client = followUp.environment == .sandbox ? (sandboxAPI ?? api) : api
        var summary = Summary()
        var written: OrderID?
        if let token = followUp.appAccountToken {
            let done = await call("set_app_account_token", followUp, into: &summary) {
                try await client.setAppAccountToken(token.uuid, originalTransactionID: followUp.originalTransactionID)
            }
            if done {
                written = token
                summary.tokensWritten += 1
            }
        }
        var finished = false
        if followUp.finish {
            finished = await call("finish_transaction", followUp, into: &summary) {
                try await client.finishTransaction(transactionID: followUp.transactionID)
            }
            if finished { summary.finished += 1 }
        }
        guard finished || written != nil else { return summary }
        do {
            try await store.recordAppleFollowUp(
                transactionID: followUp.transactionID, finished: finished, tokenWritten: written, now: now())
        } catch {
            logger.warning(
                "cannot record what Apple took; it will be sent again",
                metadata: ["transaction_id": "\(followUp.transactionID)", "error": "\(error)"])
        }
        return summary
    }

    /// One call: true when it is done (Apple took it, or refused it for good, which is logged).
    private func call(
        _ name: String, _ followUp: AppleFollowUp, into summary: inout Summary,
        _ body: () async throws -> Void
    ) async -> Bool {
        let metadata: Logger.Metadata = ["transaction_id": "\(followUp.transactionID)", "purser.call": "\(name)"]
        do {
            try await body()
            logger.debug("told Apple", metadata: metadata)
            return true
        } catch let error as AppStoreServerAPIError where Self.isRefusedForGood(error) {
            summary.refused += 1
            logger.warning(
                "Apple refused the call; not retried", metadata: metadata.merging(["error": "\(error)"]) { $1 })
            return true
        } catch {
            summary.deferred += 1
            logger.info(
                "Apple did not take the call; retried later", metadata: metadata.merging(["error": "\(error)"]) { $1 })
            return false
        }
    }

    /// A 4xx other than 401, 403 and 429: asking again will not help (our credentials or Apple's load might).
    static func isRefusedForGood(_ error: AppStoreServerAPIError) -> Bool {
        guard let status = error.httpStatus else { return false }
        return (400..<500).contains(status) && ![401, 403, 429].contains(status)
    }
}

extension AppleFollowUps.Summary {
    /// Adds the counts of `other` (a later run) to these.
    public mutating func add(_ other: Self) {
        finished += other.finished
        tokensWritten += other.tokensWritten
        deferred += other.deferred
        refused += other.refused
    }
}
