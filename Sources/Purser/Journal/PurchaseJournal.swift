import Foundation
import PurserCore

/// The app's durable record of every purchase it started: each change is saved before the journal answers, so
/// what the coordinator acts on is what survives a crash.
public actor PurchaseJournal {
    private let store: any JournalStore
    private var entries: [OrderID: JournalEntry]
    private let now: @Sendable () -> Date
    private let closedLimit: Int
    /// Each entry's stored form as last saved: a save encodes only the entries that changed since.
    private var storedForms: [OrderID: (entry: JournalEntry, json: Data)] = [:]

    /// Loads the journal, dropping closed entries older than `retention`. Every save keeps at most `closedLimit`
    /// closed entries (the most recently closed): every change rewrites the file, so a long session must not grow it
    /// without bound, while recent ones still recognise a late duplicate callback.
    public init(
        store: any JournalStore, retention: TimeInterval = 30 * 86_400, closedLimit: Int = 32,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(JournalStoreError) {
        self.store = store
        self.now = now
        self.closedLimit = max(0, closedLimit)
        let cutoff = now().addingTimeInterval(-retention)
        let loaded = try store.load().filter { !$0.state.isClosed || $0.updatedAt >= cutoff }
        self.entries = Dictionary(loaded.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// Every entry, oldest first.
    public var all: [JournalEntry] {
        entries.values.sorted { ($0.createdAt, $0.id.description) < ($1.createdAt, $1.id.description) }
    }

    /// Entries that are not closed, oldest first.
    public var open: [JournalEntry] { all.filter { !$0.state.isClosed } }

    /// The entry for order `id`, open or among the recently closed.
    public func entry(_ id: OrderID) -> JournalEntry? { entries[id] }

    /// The trace id every request for entry `id` carries (`JournalEntry.traceID`). An entry without a valid one (a
    /// journal written before trace ids) gets a new one here, saved, so its later requests and recovery after a
    /// relaunch stay in the same trace.
    public func traceID(of id: OrderID) throws(PurchaseJournalError) -> String {
        guard var entry = entries[id] else { throw .unknownEntry(id) }
        if let known = entry.traceID, TraceContext.isTraceID(known) { return known }
        let traceID = TraceContext.newTraceID()
        entry.traceID = traceID
        var next = entries
        next[id] = entry
        do { try commit(next) } catch { throw .storage(error) }
        return traceID
    }

    /// Records a new purchase (state `created`) durably.
    public func begin(_ entry: JournalEntry) throws(JournalStoreError) {
        var next = entries
        next[entry.id] = entry
        try commit(next)
    }

    /// Applies `event` to entry `id` and saves; returns the new entry.
    @discardableResult
    public func apply(_ event: JournalEvent, to id: OrderID) throws(PurchaseJournalError) -> JournalEntry {
        guard let entry = entries[id] else { throw .unknownEntry(id) }
        let updated: JournalEntry
        do { updated = try entry.applying(event, at: now()) } catch { throw .transition(error) }
        guard updated != entry else { return entry }
        var next = entries
        next[id] = updated
        do { try commit(next) } catch { throw .storage(error) }
        return updated
    }

    /// The entry a StoreKit transaction belongs to: by transaction id, else by the order id StoreKit handed back,
    /// else the oldest entry still waiting for a transaction of this product, the current user's first.
    public func match(transactionID: String, orderID: OrderID?, productID: String, user: String?) -> JournalEntry? {
        if let known = entries.values.first(where: { $0.transactionID == transactionID }) { return known }
        if let orderID, let entry = entries[orderID] { return entry }
        let waiting = all.filter { $0.productID == productID && $0.transactionID == nil && $0.state.awaitsTransaction }
        return waiting.first { $0.userID == user } ?? waiting.first
    }

    /// The entry that names `transactionID`, else the one for `orderID`; no fallback by product.
    public func match(transactionID: String, orderID: OrderID?) -> JournalEntry? {
        if let known = entries.values.first(where: { $0.transactionID == transactionID }) { return known }
        return orderID.flatMap { entries[$0] }
    }

    private func commit(_ next: [OrderID: JournalEntry]) throws(JournalStoreError) {
        let kept = withinClosedLimit(next)
        let sorted = kept.values.sorted { $0.createdAt < $1.createdAt }
        var forms: [OrderID: (entry: JournalEntry, json: Data)] = [:]
        var encoded = Data("[".utf8)
        do {
            for (index, entry) in sorted.enumerated() {
                let json = try storedForms[entry.id].flatMap { $0.entry == entry ? $0.json : nil } ?? entry.encoded()
                forms[entry.id] = (entry, json)
                if index > 0 { encoded.append(UInt8(ascii: ",")) }
                encoded.append(json)
            }
        } catch {
            throw JournalStoreError(code: "journal_unwritable", message: "cannot encode the journal: \(error)")
        }
        encoded.append(UInt8(ascii: "]"))
        try store.save(sorted, encoded: encoded)
        entries = kept
        storedForms = forms
    }

    /// `entries` without the oldest closed ones beyond `closedLimit`; open entries always stay.
    private func withinClosedLimit(_ entries: [OrderID: JournalEntry]) -> [OrderID: JournalEntry] {
        let closed = entries.values.filter(\.state.isClosed)
        guard closed.count > closedLimit else { return entries }
        var kept = entries
        let oldest = closed.sorted { ($0.updatedAt, $0.id.description) < ($1.updatedAt, $1.id.description) }
        for entry in oldest.prefix(closed.count - closedLimit) { kept[entry.id] = nil }
        return kept
    }
}
