import Foundation
import PurserStorage

extension Reconciler {
    /// The last finished run and what it found, kept in the ledger (a cursor) for the console's dashboard, whoever
    /// ran it (a replica's periodic run, `purser reconcile`).
    public struct LastRun: Codable, Sendable, Hashable {
        public var finishedAt: Date
        public var summary: Summary
    }

    static let lastRunCursor = "reconciliation.last-run"

    func remember(_ summary: Summary, in store: any LedgerStore) async throws {
        let run = LastRun(finishedAt: now(), summary: summary)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try await store.setCursor(
            Self.lastRunCursor, to: String(decoding: try encoder.encode(run), as: UTF8.self), now: now())
    }

    /// The last finished run recorded in `store`, if any.
    public static func lastRun(in store: any LedgerStore) async throws -> LastRun? {
        guard let text = try await store.cursor(lastRunCursor) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(LastRun.self, from: Data(text.utf8))
    }
}
