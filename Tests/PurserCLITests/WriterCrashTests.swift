import Foundation
import Logging
import PurserChaos
import PurserCore
import PurserStorage
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real `purser serve` on SQLite, killed with SIGKILL while 32 clients keep its writer busy with group-committed
/// batches, three times over: every decision it answered is in the ledger when the file is opened again, and after
/// the last restart every purchase is credited exactly once.
@Suite(.serialized) struct WriterCrashTests {
    let serve = ServeCommandTests()
    static let purchases = 300
    static let users = 10

    /// One purchase: its signed transaction, Apple's id for it and its buyer.
    struct Purchase: Sendable {
        let jws: String
        let transactionID: String
        let user: String
    }

    @Test func everyAnsweredDecisionSurvivesAKillDuringABatch() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try await serve.simulatedServe(in: directory)
        defer { setup.simulator.terminate() }
        let (data, simulatorURL) = (setup.data, setup.simulatorURL)

        var (server, port) = try await serve.launch(setup)
        let purchases = try await buy(Self.purchases, at: "http://127.0.0.1:\(port)", simulator: simulatorURL)
        var answered: [String: String] = [:]
        for round in 1...3 {
            let base = "http://127.0.0.1:\(port)"
            let open = purchases.filter { answered[$0.transactionID] == nil }
            let killed = Mutex(false)
            let pid = server.processIdentifier
            let decisions = try await submit(open, to: base) { count in
                // Kill once a third of this round is answered: the other clients' submissions are in flight.
                guard count == open.count / 3,
                    killed.withLock({ done in
                        defer { done = true }
                        return !done
                    })
                else {
                    return
                }
                kill(pid, SIGKILL)
            }
            await server.waitUntilExit()
            #expect(server.terminationStatus == 128 + SIGKILL, "round \(round): the server was killed")
            for (id, decision) in decisions { answered[id] = decision }
            #expect(decisions.count < open.count, "round \(round): some submissions met the kill")

            // Every answer so far is in the ledger, read from the file the killed server left.
            let store = try await SQLiteLedgerStore.open(
                path: data.appendingPathComponent("purser.sqlite").path, logger: Logger(label: "test"))
            for (id, decision) in answered where decision == "delivered" {
                #expect(try await store.transaction(id)?.state == .credited, "round \(round): \(id) was answered")
            }
            try await store.close()
            (server, port) = try await serve.launch(setup)
        }
        defer { server.terminate() }

        // After the last restart, every purchase once more: all credited, none twice.
        let base = "http://127.0.0.1:\(port)"
        let last = try await submit(purchases, to: base) { _ in }
        #expect(last.count == purchases.count)
        #expect(Set(last.values).isSubset(of: ["delivered", "alreadyDelivered"]))
        for user in 0..<Self.users {
            let (_, wallet) = try await serve.request("GET", "\(base)/v1/wallet", user: "user-\(user)")
            let bought = purchases.filter { $0.user == "user-\(user)" }.count
            #expect((wallet["balances"] as? [String: Int])?["gold"] == 60 * bought)
        }
    }

    /// `count` orders at `base` and their purchases at the simulator, spread over the test's users.
    func buy(_ count: Int, at base: String, simulator: String) async throws -> [Purchase] {
        try await (0..<count).concurrentMap(width: 16) { index in
            let user = "user-\(index % Self.users)"
            let (jws, id) = try await serve.buyGold60(as: user, at: base, simulator: simulator)
            return Purchase(jws: jws, transactionID: id, user: user)
        }
    }

    /// Submits `purchases` with 32 clients; returns the decisions answered (by transaction id). A submission that
    /// meets no server (it was killed) has no decision. `answered` hears the running count after each decision.
    func submit(_ purchases: [Purchase], to base: String, answered: @escaping @Sendable (Int) -> Void)
        async throws -> [String: String]
    {
        let count = Atomic(0)
        let decisions = try await purchases.concurrentMap(width: 32) { purchase -> (String, String)? in
            guard
                let (status, body) = try? await serve.request(
                    "POST", "\(base)/v1/transactions", user: purchase.user,
                    json: #"{"signedTransaction": "\#(purchase.jws)"}"#),
                status == 200, let decision = body["decision"] as? String
            else { return nil }
            answered(count.add(1, ordering: .relaxed).newValue)
            return (purchase.transactionID, decision)
        }
        return Dictionary(decisions.compactMap { $0 }, uniquingKeysWith: { first, _ in first })
    }
}

extension Sequence where Element: Sendable {
    /// `transform` of every element, at most `width` at a time, in the sequence's order.
    func concurrentMap<T: Sendable>(width: Int, _ transform: @escaping @Sendable (Element) async throws -> T)
        async throws -> [T]
    {
        let items = Array(self)
        return try await withThrowingTaskGroup(of: (Int, T).self) { group in
            var next = 0
            var results: [T?] = Array(repeating: nil, count: items.count)
            while next < Swift.min(width, items.count) {
                let (index, item) = (next, items[next])
                group.addTask { (index, try await transform(item)) }
                next += 1
            }
            while let (index, value) = try await group.next() {
                results[index] = value
                if next < items.count {
                    let (index, item) = (next, items[next])
                    group.addTask { (index, try await transform(item)) }
                    next += 1
                }
            }
            return results.map { $0! }
        }
    }
}
