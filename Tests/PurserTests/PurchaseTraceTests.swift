import Foundation
import Purser
import PurserCore
import Testing

/// Each purchase is one W3C trace: its order, its submissions and their retries, and recovery after a relaunch carry
/// the trace id its journal entry keeps, each request a span of its own; a spend is one trace across its resends;
/// other requests start a trace each.
@Suite struct PurchaseTraceTests {
    let ann = PurserSession(userID: "ann", authorization: .development)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("purser-trace-\(UUID())")
    var journalFile: URL { directory.appendingPathComponent("purchases.json") }
    var spendFile: URL { directory.appendingPathComponent("spends.json") }

    /// A coordinator on the journals in `directory`, talking to `server`, retrying `attempts` times without waiting.
    func coordinator(_ server: RecordingServer, _ store: FakeStore, attempts: Int = 3, headers: [String: String] = [:])
        throws -> (PurchaseCoordinator, PurchaseJournal)
    {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let journal = try PurchaseJournal(store: FileJournalStore(url: journalFile))
        let api = PurserAPIClient(
            baseURL: RecordingServer.baseURL, headers: headers, app: "com.example.game", transport: server)
        let app = PurchaseCoordinator(
            api: api, journal: journal, store: store, spends: try SpendJournal(url: spendFile),
            configuration: .init(retry: RetryPolicy(maxAttempts: attempts), sleep: { _ in }, signals: .none))
        return (app, journal)
    }

    /// The trace ids of `requests`, which all carry a valid `traceparent`.
    func traces(_ requests: [RecordingServer.Request]) -> [TraceContext] {
        let traces = requests.compactMap(\.trace)
        #expect(traces.count == requests.count, "a request without a valid traceparent: \(requests)")
        return traces
    }

    @Test func aPurchaseIsOneTraceAcrossItsOrderSubmissionAndRetries() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = RecordingServer()
        let (app, journal) = try coordinator(server, FakeStore())
        await app.start(session: ann)
        await server.failSubmissions(1)
        guard case .delivered(let delivery) = try await app.buy("gold60") else {
            Issue.record("the purchase was not delivered")
            return
        }
        let first = await server.requests.filter { $0.method == "POST" }
        #expect(first.map(\.path) == ["/v1/orders", "/v1/transactions", "/v1/transactions"])
        let trace = traces(first)
        #expect(Set(trace.map(\.traceID)).count == 1, "\(trace)")
        #expect(Set(trace.map(\.spanID)).count == 3, "each request is a span of its own: \(trace)")
        #expect(trace.allSatisfy { $0.sampled })
        let entry = try #require(await journal.all.first { $0.transactionID == delivery.transactionID })
        #expect(entry.traceID == trace.first?.traceID && entry.state == .finished)

        _ = try await app.buy("gold60")
        let second = traces(await server.requests.filter { $0.method == "POST" }.dropFirst(3).map { $0 })
        #expect(second.count == 2 && Set(second.map(\.traceID)).count == 1)
        #expect(second.first?.traceID != trace.first?.traceID, "a second purchase is a trace of its own")
        await app.shutdown()
    }

    @Test func aRelaunchRecoversThePurchaseInTheTraceItHad() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = RecordingServer()
        let store = FakeStore()
        let (app, _) = try coordinator(server, store, attempts: 2)
        await app.start(session: ann)
        await server.failSubmissions(2)
        guard case .pending(let pending) = try await app.buy("gold60"), pending.reason == .serverUnreachable else {
            Issue.record("the purchase did not wait for the server")
            return
        }
        await app.shutdown()

        // The app is launched again: a new coordinator on the same journal; StoreKit still holds the transaction.
        let (relaunched, journal) = try coordinator(server, store)
        await relaunched.start(session: ann)
        let requests = await server.requests
        #expect(requests.map(\.path) == ["/v1/orders", "/v1/transactions", "/v1/transactions", "/v1/transactions"])
        let trace = traces(requests)
        #expect(Set(trace.map(\.traceID)).count == 1, "the relaunch's submission left the purchase's trace: \(trace)")
        #expect(Set(trace.map(\.spanID)).count == 4)
        let orderID = try #require(pending.orderID)
        let entry = try #require(await journal.entry(orderID))
        #expect(entry.state == .finished && entry.traceID == trace.first?.traceID)
        await relaunched.shutdown()
    }

    @Test func anEntryJournaledBeforeTraceIDsGetsOneAtItsNextRequestAndKeepsIt() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let order = OrderID.random()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The previous release's journal: no traceID.
        try Data(
            """
            [{"attempts":0,"createdAt":1700000000000,"id":"\(order)","productID":"gold60","quantity":2,\
            "state":"paying","updatedAt":1700000001000,"userID":"ann"}]
            """.utf8
        ).write(to: journalFile)
        let old = try #require(await PurchaseJournal(store: FileJournalStore(url: journalFile)).entry(order))
        #expect(old.traceID == nil && old.state == .paying && old.quantity == 2 && old.userID == "ann")
        #expect(old.createdAt == Date(timeIntervalSince1970: 1_700_000_000) && old.attempts == 0)

        let server = RecordingServer()
        let store = FakeStore()
        await store.hold(
            StoreTransaction(
                id: "2000000000000077", productID: "gold60", quantity: 2, orderID: order, purchaseDate: nil))
        let (app, _) = try coordinator(server, store, attempts: 2)
        await server.failSubmissions(2)
        await app.start(session: ann)
        await app.shutdown()
        let given = traces(await server.requests)
        #expect(given.count == 2 && Set(given.map(\.traceID)).count == 1)
        let saved = try #require(await PurchaseJournal(store: FileJournalStore(url: journalFile)).entry(order))
        #expect(saved.traceID == given.first?.traceID, "the trace id it got was not journaled")

        let (relaunched, journal) = try coordinator(server, store)
        await relaunched.start(session: ann)
        let all = traces(await server.requests)
        #expect(all.count == 3 && Set(all.map(\.traceID)) == [saved.traceID])
        #expect(await journal.entry(order)?.state == .finished)
        await relaunched.shutdown()
    }

    @Test func aTransactionNoEntryKnowsIsOneTraceAcrossItsRetries() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = RecordingServer()
        let store = FakeStore()
        await store.hold(
            StoreTransaction(id: "2000000000000088", productID: "noads", quantity: 1, orderID: nil, purchaseDate: nil))
        let (app, _) = try coordinator(server, store)
        await server.failSubmissions(2)
        await app.start(session: ann)
        let trace = traces(await server.requests)
        #expect(trace.count == 3 && Set(trace.map(\.traceID)).count == 1 && Set(trace.map(\.spanID)).count == 3)
        #expect(await store.unfinishedTransactions().isEmpty)
        await app.shutdown()
    }

    @Test func aSpendIsOneTraceAcrossItsResendsAndOtherRequestsStartOneEach() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = RecordingServer()
        let (app, _) = try coordinator(
            server, FakeStore(), headers: ["traceparent": "00-\(String(repeating: "1", count: 32))-1111111111111111-01"]
        )
        await app.start(session: ann)
        await server.dropSpends(1)
        await #expect(throws: SpendError.self) { try await app.spend(["gold": 50], reason: "sword", id: "s1") }
        let journaled = try await SpendJournal(url: spendFile).spend("s1")?.traceID
        await app.recover(.foreground)
        _ = try await app.spend(["gold": 5], reason: "potion", id: "s2")
        let spends = traces(await server.requests(to: "/v1/wallet/spend"))
        #expect(spends.count == 3 && spends[0].traceID == spends[1].traceID && spends[0].traceID == journaled)
        #expect(spends[0].spanID != spends[1].spanID && spends[2].traceID != spends[0].traceID)

        _ = try await app.wallet()
        _ = try await app.wallet()
        _ = try await app.products()
        let reads = traces(await server.requests.filter { $0.method == "GET" })
        #expect(reads.count == 3)
        let all = Set(reads.map(\.traceID) + spends.map(\.traceID))
        #expect(all.count == 5, "a wallet read or the product list shared a trace: \(reads)")
        #expect(!all.contains(String(repeating: "1", count: 32)), "the app's own traceparent header was sent")
        await app.shutdown()
    }

    @Test func aSpendJournaledBeforeTraceIDsGetsOneAtItsNextSendAndKeepsIt() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(
            #"[{"amounts":{"gold":5},"attempts":1,"createdAt":1700000000000,"id":"s0","reason":"sword","userID":"ann"}]"#
                .utf8
        ).write(to: spendFile)
        let old = try #require(await SpendJournal(url: spendFile).spend("s0"))
        #expect(old.traceID == nil && old.amounts == ["gold": 5] && old.attempts == 1 && old.reason == "sword")

        let server = RecordingServer()
        let (app, _) = try coordinator(server, FakeStore())
        await server.dropSpends(1)
        await app.start(session: ann)
        let given = try #require(await SpendJournal(url: spendFile).spend("s0")?.traceID)
        await app.recover(.foreground)
        let sends = traces(await server.requests(to: "/v1/wallet/spend"))
        #expect(sends.map(\.traceID) == [given, given])
        #expect(try await SpendJournal(url: spendFile).spend("s0") == nil)
        await app.shutdown()
    }
}
