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
        let saved = try await store.cursor(key).flatMap(SavedHistory.init)
        /// Saves where the account's history now ends, unless the account already has it (most accounts, most runs).
        func save(_ anchor: String, _ revision: String?) async throws {
            guard let revision else { return }
            let current = SavedHistory(anchor: anchor, revision: revision)
            if current != saved { try await store.setCursor(key, to: current.text, now: now()) }
        }
        if let revision = walked[latest] {
            try await save(latest, revision)
            return Summary()
        }
        var summary = Summary()
        var start: String?
        if let saved {
            guard saved.anchor != latest else {
                let walk = try await walk(latest, from: saved.revision, noting: &walked)
                try await save(latest, walk.revision)
                return walk.summary
            }
            let again = try await walk(saved.anchor, from: saved.revision, noting: &walked)
            summary.add(again.summary)
            if again.seen.contains(latest) {
                try await save(latest, again.revision)
                return summary
            }
        } else {
            start = try await store.cursor(SavedHistory.legacyCursor(of: latest))
        }
        let walk = try await walk(latest, from: start, noting: &walked)
        try await save(latest, walk.revision)
        summary.add(walk.summary)
        return summary
    }

    /// `walk(_:from:)`, its ids noted in `walked` with the revision its history ended at.
    private func walk(_ anchor: String, from revision: String?, noting walked: inout [String: String])
        async throws -> Walk
    {
        let walk = try await walk(anchor, from: revision)
        if let end = walk.revision { for id in walk.seen { walked[id] = end } }
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
