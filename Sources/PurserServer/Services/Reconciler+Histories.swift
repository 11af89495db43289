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

    /// Reads what changed in `anchor`'s account's history since the last run and settles it; returns what it did.
    /// An account that bought again under the same Apple ID is read from its saved revision (the new purchase is
    /// among what changed since); one whose latest purchase is not there bought under another Apple ID, whose
    /// history is then read from its start and followed from then on. `walked` holds the ids seen this run, each
    /// with its history's revision.
    func catchUp(_ anchor: HistoryAnchor, walked: inout [String: String]) async throws -> Summary {
        let store = notifications.submissions.store
        let latest = anchor.transactionID
        let key = SavedHistory.cursor(of: anchor.owner)
        if let revision = walked[latest] {
            try await store.setCursor(key, to: SavedHistory(anchor: latest, revision: revision).text, now: now())
            return Summary()
        }
        var summary = Summary()
        var start: String?
        if let saved = try await store.cursor(key).flatMap(SavedHistory.init) {
            guard saved.anchor != latest else {
                return try await follow(latest, from: saved.revision, owner: anchor.owner, walked: &walked)
            }
            let again = try await walk(saved.anchor, from: saved.revision)
            summary.add(again.summary)
            note(again, in: &walked)
            if let revision = again.revision, again.seen.contains(latest) {
                try await store.setCursor(key, to: SavedHistory(anchor: latest, revision: revision).text, now: now())
                return summary
            }
        } else {
            start = try await store.cursor(SavedHistory.legacyCursor(of: latest))
        }
        summary.add(try await follow(latest, from: start, owner: anchor.owner, walked: &walked))
        return summary
    }

    /// Walks `anchor`'s history from `revision` and saves where it ended as `owner`'s.
    private func follow(_ anchor: String, from revision: String?, owner: UserID, walked: inout [String: String])
        async throws -> Summary
    {
        let walk = try await walk(anchor, from: revision)
        note(walk, in: &walked)
        if let end = walk.revision {
            try await notifications.submissions.store.setCursor(
                SavedHistory.cursor(of: owner), to: SavedHistory(anchor: anchor, revision: end).text, now: now())
        }
        return walk.summary
    }

    private func note(_ walk: Walk, in walked: inout [String: String]) {
        guard let revision = walk.revision else { return }
        for id in walk.seen { walked[id] = revision }
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
