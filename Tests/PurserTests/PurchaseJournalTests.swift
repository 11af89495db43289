import Foundation
import Purser
import PurserCore
import Testing

@Suite("Purchase journal on a file")
struct PurchaseJournalTests {
    func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("purser-journal-\(UUID())/journal.json")
    }

    @Test("every change survives a reload, and no temporary file is left behind")
    func durable() async throws {
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let journal = try PurchaseJournal(store: FileJournalStore(url: url))
        let entry = JournalEntry(id: .random(), userID: "alice", productID: "gold60", quantity: 2, createdAt: Date())
        try await journal.begin(entry)
        try await journal.apply(.paymentAdded, to: entry.id)
        try await journal.apply(.purchased(transactionID: "2000"), to: entry.id)

        let reloaded = try PurchaseJournal(store: FileJournalStore(url: url))
        let copy = try #require(await reloaded.entry(entry.id))
        #expect(copy.state == .paid && copy.transactionID == "2000" && copy.quantity == 2)
        let files = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(files == ["journal.json"])
    }

    @Test("a save re-encodes only what changed and writes exactly the bytes of encoding every entry at once")
    func incrementalEncodingMatchesWholeEncoding() async throws {
        let url = temporaryFile()
        let other = temporaryFile()
        defer {
            try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
            try? FileManager.default.removeItem(at: other.deletingLastPathComponent())
        }
        let journal = try PurchaseJournal(store: FileJournalStore(url: url), closedLimit: 3)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        for index in 0..<8 {
            let entry = JournalEntry(
                id: .random(), userID: "user-\(index % 3)", productID: "gold60", quantity: 1,
                createdAt: start.addingTimeInterval(Double(index)))
            try await journal.begin(entry)
            try await journal.apply(.paymentAdded, to: entry.id)
            if index % 2 == 0 { try await journal.apply(.cancelled("test"), to: entry.id) }
            let written = try Data(contentsOf: url)
            try FileJournalStore(url: other).save(await journal.all)
            #expect(written == (try Data(contentsOf: other)), "after entry \(index)")
        }
        let loaded = try FileJournalStore(url: url).load()
        #expect(loaded.map(\.id) == (await journal.all).map(\.id))
        #expect(loaded.map(\.state) == (await journal.all).map(\.state))
        #expect(loaded.filter(\.state.isClosed).count == 3, "closedLimit")
    }

    @Test("matching: by transaction id, then order id, then the user's oldest waiting entry of the product")
    func matching() async throws {
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let journal = try PurchaseJournal(store: FileJournalStore(url: url))
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        let bobs = JournalEntry(id: .random(), userID: "bob", productID: "gold60", quantity: 1, createdAt: t0)
        let older = JournalEntry(
            id: .random(), userID: "alice", productID: "gold60", quantity: 1,
            createdAt: t0.addingTimeInterval(1))
        let newer = JournalEntry(
            id: .random(), userID: "alice", productID: "gold60", quantity: 1,
            createdAt: t0.addingTimeInterval(2))
        for entry in [bobs, older, newer] {
            try await journal.begin(entry)
            try await journal.apply(.paymentAdded, to: entry.id)
        }
        #expect(
            await journal.match(transactionID: "1", orderID: nil, productID: "gold60", user: "alice")?.id == older.id)
        #expect(
            await journal.match(transactionID: "1", orderID: newer.id, productID: "gold60", user: "alice")?.id
                == newer.id)
        #expect(
            await journal.match(transactionID: "1", orderID: nil, productID: "gold60", user: "carol")?.id == bobs.id)
        #expect(await journal.match(transactionID: "1", orderID: nil, productID: "gold120", user: "alice") == nil)
        try await journal.apply(.purchased(transactionID: "7"), to: older.id)
        #expect(
            await journal.match(transactionID: "7", orderID: newer.id, productID: "gold60", user: "bob")?.id == older.id
        )
        #expect(
            await journal.match(transactionID: "8", orderID: nil, productID: "gold60", user: "alice")?.id == newer.id)
    }

    @Test("a corrupt journal file is a clear error, not an empty journal")
    func corrupt() throws {
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: url)
        #expect { try PurchaseJournal(store: FileJournalStore(url: url)) } throws: {
            ($0 as? JournalStoreError)?.code == "journal_unreadable"
        }
    }

    @Test("a long session keeps only the most recently closed entries, and every open one")
    func closedLimit() async throws {
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let clock = LockedClock(start)
        let journal = try PurchaseJournal(store: FileJournalStore(url: url), closedLimit: 3, now: { clock.now })
        let waiting = JournalEntry(id: .random(), userID: "a", productID: "p", quantity: 1, createdAt: start)
        try await journal.begin(waiting)
        try await journal.apply(.paymentAdded, to: waiting.id)
        var closed: [OrderID] = []
        for index in 1...6 {
            clock.now = start.addingTimeInterval(Double(index))
            let entry = JournalEntry(id: .random(), userID: "a", productID: "p", quantity: 1, createdAt: clock.now)
            try await journal.begin(entry)
            try await journal.apply(.cancelled("cancelled"), to: entry.id)
            closed.append(entry.id)
        }
        let expected = Set([waiting.id] + closed.suffix(3))
        #expect(Set(await journal.all.map(\.id)) == expected)
        let reloaded = try PurchaseJournal(store: FileJournalStore(url: url), closedLimit: 3, now: { clock.now })
        #expect(Set(await reloaded.all.map(\.id)) == expected, "the file holds what the journal holds")
    }

    @Test("closed entries older than the retention are dropped on load; open ones never")
    func retention() async throws {
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let old = Date(timeIntervalSince1970: 1_600_000_000)
        let journal = try PurchaseJournal(store: FileJournalStore(url: url), now: { old })
        let closed = JournalEntry(id: .random(), userID: "a", productID: "p", quantity: 1, createdAt: old)
        let open = JournalEntry(id: .random(), userID: "a", productID: "p", quantity: 1, createdAt: old)
        try await journal.begin(closed)
        try await journal.begin(open)
        try await journal.apply(.cancelled("cancelled"), to: closed.id)
        let later = try PurchaseJournal(store: FileJournalStore(url: url), now: { old.addingTimeInterval(40 * 86_400) })
        #expect(await later.all.map(\.id) == [open.id])
    }
}

/// A settable clock for journal timestamps.
final class LockedClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Date
    init(_ start: Date) { value = start }
    var now: Date {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
