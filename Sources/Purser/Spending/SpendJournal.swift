import Foundation

/// The app's durable record of the spends it has not heard the answer to: each is saved before its request, so a
/// crash (or a lost connection) between sending and the answer leaves its id, and the next launch, login or recovery
/// resends it with that id, which the server replays instead of spending twice. One JSON file, replaced atomically.
public actor SpendJournal {
    /// The journal's file.
    public let url: URL
    private var pending: [String: PendingSpend]

    /// Opens the journal at `url` (none yet: empty).
    public init(url: URL) throws(JournalStoreError) {
        self.url = url
        guard FileManager.default.fileExists(atPath: url.path) else {
            pending = [:]
            return
        }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .millisecondsSince1970
            let loaded = try decoder.decode([PendingSpend].self, from: Data(contentsOf: url))
            pending = Dictionary(loaded.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        } catch {
            throw JournalStoreError(code: "journal_unreadable", message: "cannot read \(url.path): \(error)")
        }
    }

    /// Every spend not answered yet, oldest first.
    public var all: [PendingSpend] { pending.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) } }

    /// The unanswered spend with id `id`, if any.
    public func spend(_ id: String) -> PendingSpend? { pending[id] }

    /// Records `spend` durably, before it is sent; one already journaled under its id stays as it was.
    func record(_ spend: PendingSpend) throws(JournalStoreError) {
        guard pending[spend.id] == nil else { return }
        try commit { $0[spend.id] = spend }
    }

    /// The trace id each send of spend `id` carries; one journaled before trace ids gets a new one here, saved. Nil
    /// when no spend `id` is journaled.
    func traceID(of id: String) throws(JournalStoreError) -> String? {
        guard let spend = pending[id] else { return nil }
        if let known = spend.traceID, TraceContext.isTraceID(known) { return known }
        let traceID = TraceContext.newTraceID()
        try commit { $0[id]?.traceID = traceID }
        return traceID
    }

    /// A send of `id` ended without an answer.
    func noteUnanswered(_ id: String, error: String) throws(JournalStoreError) {
        guard pending[id] != nil else { return }
        try commit {
            $0[id]?.attempts += 1
            $0[id]?.lastError = error
        }
    }

    /// The server answered `id` (spent, replayed or refused): nothing is left to resend.
    func close(_ id: String) throws(JournalStoreError) {
        guard pending[id] != nil else { return }
        try commit { $0[id] = nil }
    }

    private func commit(_ change: (inout [String: PendingSpend]) -> Void) throws(JournalStoreError) {
        var next = pending
        change(&next)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = .sortedKeys
        let data: Data
        do {
            data = try encoder.encode(next.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) })
        } catch {
            throw JournalStoreError(code: "journal_unwritable", message: "cannot encode the spend journal: \(error)")
        }
        try DurableFile.replace(url, with: data)
        pending = next
    }
}
