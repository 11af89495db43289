import AppStoreVerification
import Foundation
import PurserCore
import PurserStorage

extension Reconciler {
    /// Where an account's history walk stopped: the transaction it was walked from and Apple's revision after it.
    /// Kept per account (`transaction-history.owner.ID`), so a run after the account bought again resumes at the
    /// revision instead of reading the history whole from its new latest transaction.
    struct SavedHistory: Sendable, Hashable {
        var anchor: String
        var revision: String

        init(anchor: String, revision: String) {
            self.anchor = anchor
            self.revision = revision
        }

        init?(_ text: String) {
            guard let space = text.firstIndex(of: " ") else { return nil }
            self.init(anchor: String(text[..<space]), revision: String(text[text.index(after: space)...]))
        }

        var text: String { "\(anchor) \(revision)" }

        static func cursor(of owner: UserID) -> String { "transaction-history.owner.\(owner.rawValue)" }
        /// The cursor earlier releases kept per anchor transaction: read when an account has no cursor of its own.
        static func legacyCursor(of anchor: String) -> String { "transaction-history.\(anchor)" }
    }

    /// One history walked: what it settled, the ids it holds and the revision it ended at.
    struct Walk: Sendable {
        var summary = Summary()
        var seen: [String] = []
        var revision: String?
    }

    /// Runs `body` for each anchor, those of one Apple account (`HistoryAnchor.appTransactionID`) one after another
    /// and up to `limit` accounts at a time; `finished` hears, on the caller's task, how many anchors each account
    /// had and the sum of `body`'s summaries so far. Anchors without an Apple account are each their own: two of them
    /// on one history may walk it at once, which reads it twice and settles each transaction once all the same.
    static func forEachAccount(
        of anchors: [HistoryAnchor], limit: Int, _ body: @escaping @Sendable (HistoryAnchor) async throws -> Summary,
        finished: (_ anchors: Int, _ total: Summary) -> Void
    ) async throws -> Summary {
        var accounts: [[HistoryAnchor]] = []
        var position: [String: Int] = [:]
        for anchor in anchors {
            if let account = anchor.appTransactionID, let index = position[account] {
                accounts[index].append(anchor)
            } else {
                if let account = anchor.appTransactionID { position[account] = accounts.count }
                accounts.append([anchor])
            }
        }
        return try await withThrowingTaskGroup(of: (Int, Summary).self) { group in
            var next = accounts.makeIterator()
            func start(_ account: [HistoryAnchor]) {
                group.addTask {
                    var summary = Summary()
                    for anchor in account { summary.add(try await body(anchor)) }
                    return (account.count, summary)
                }
            }
            for _ in 0..<max(1, limit) {
                guard let account = next.next() else { break }
                start(account)
            }
            var total = Summary()
            while let (count, summary) = try await group.next() {
                total.add(summary)
                finished(count, total)
                if let account = next.next() { start(account) }
            }
            return total
        }
    }

    /// Reads what changed in `anchor`'s account's history since the last run and settles it; returns what it did.
    /// An account that bought again under the same Apple ID is read from its saved revision (the new purchase is
    /// among what changed since); one whose latest purchase is not there bought under another Apple ID, whose
    /// history is then read from its start and followed from then on. `walked` holds the ids seen this run, each
    /// with its history's revision.
    func catchUp(_ anchor: HistoryAnchor, walked: WalkedHistories) async throws -> Summary {
        let store = notifications.submissions.store
        let latest = anchor.transactionID
        let key = SavedHistory.cursor(of: anchor.owner)
        let saved = try await store.cursor(key).flatMap(SavedHistory.init)
        /// Saves where the account's history now ends, unless the account already has it (most accounts, most runs).
        func save(_ anchor: String, _ revision: String?) async throws {
            guard let revision else { return }
            let current = SavedHistory(anchor: anchor, revision: revision)
            if current != saved { try await store.setCursor(key, to: current.text, now: now()) }
        }
        if let revision = walked.revision(of: latest) {
            try await save(latest, revision)
            return Summary()
        }
        var summary = Summary()
        var start: String?
        if let saved {
            guard saved.anchor != latest else {
                let walk = try await walk(latest, from: saved.revision, noting: walked)
                try await save(latest, walk.revision)
                return walk.summary
            }
            let again = try await walk(saved.anchor, from: saved.revision, noting: walked)
            summary.add(again.summary)
            if again.seen.contains(latest) {
                try await save(latest, again.revision)
                return summary
            }
        } else {
            start = try await store.cursor(SavedHistory.legacyCursor(of: latest))
        }
        let walk = try await walk(latest, from: start, noting: walked)
        try await save(latest, walk.revision)
        summary.add(walk.summary)
        return summary
    }

    /// `walk(_:from:)`, its ids noted in `walked` with the revision its history ended at.
    private func walk(_ anchor: String, from revision: String?, noting walked: WalkedHistories) async throws -> Walk {
        let walk = try await walk(anchor, from: revision)
        if let end = walk.revision { walked.note(walk.seen, endingAt: end) }
        return walk
    }

    /// Walks the history `anchor` belongs to from `revision` (its start when nil) and settles what it holds. A
    /// history neither of Apple's hosts knows is counted and skipped: one account must not stop every other's.
    private func walk(_ anchor: String, from revision: String?) async throws -> Walk {
        var history: AppStoreServerAPI.TransactionHistory?
        for api in [api, sandboxAPI].compactMap({ $0 }) where history == nil {
            do {
                history = try await api.getAllTransactionHistory(transactionID: anchor, startingAt: revision)
            } catch let error as AppStoreServerAPIError where error.code == .transactionIdNotFound {
                continue
            }
        }
        guard let history else {
            var skipped = Walk()
            skipped.summary.historiesNotFound = 1
            return skipped
        }
        var walk = Walk(revision: history.revision)
        for (id, outcome) in try await reconcile(history.signedTransactions) {
            walk.summary.scanned += 1
            walk.summary.count(outcome)
            if let id { walk.seen.append(id) }
        }
        return walk
    }
}
