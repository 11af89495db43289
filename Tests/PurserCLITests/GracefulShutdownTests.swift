import Foundation
import Logging
import PurserChaos
import PurserCore
import PurserStorage
import Synchronization
import Testing

/// The real `purser serve` on SQLite told to stop (SIGTERM, as a deploy does) while 32 clients submit: it exits 0,
/// every decision it answered is in the ledger, `GET /ready` said ready until then, and after a restart every
/// purchase is credited exactly once.
@Suite(.serialized) struct GracefulShutdownTests {
    let serve = ServeCommandTests()
    let crash = WriterCrashTests()

    @Test func aSigtermMidLoadAnswersWhatIsInFlightAndLosesNothing() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try await serve.simulatedServe(in: directory)
        defer { setup.simulator.terminate() }
        let (data, simulatorURL) = (setup.data, setup.simulatorURL)
        let (server, port) = try await serve.launch(setup)
        let base = "http://127.0.0.1:\(port)"
        let (ready, body) = try await serve.request("GET", "\(base)/ready")
        #expect(ready == 200 && body["status"] as? String == "ready")
        // 90 purchases: enough for 32 clients to have submissions in flight at the stop, light beside the suite.
        let purchases = try await crash.buy(90, at: base, simulator: simulatorURL)

        let stopped = Mutex(false)
        let decisions = try await crash.submit(purchases, to: base) { count in
            // SIGTERM once a third is answered: the other clients' submissions are in flight.
            guard count == purchases.count / 3,
                stopped.withLock({ done in
                    defer { done = true }
                    return !done
                })
            else { return }
            server.terminate()
        }
        #expect(await server.waitUntilExit() == 0, "a graceful stop: \(server.output.suffix(2_000))")
        #expect(
            (purchases.count / 3..<purchases.count).contains(decisions.count),
            "the stop came mid-load: \(decisions.count) of \(purchases.count) answered")

        // Every answer is in the ledger the stopped server left.
        let store = try await SQLiteLedgerStore.open(
            path: data.appendingPathComponent("purser.sqlite").path, logger: Logger(label: "test"))
        for (id, decision) in decisions where decision == "delivered" {
            #expect(try await store.transaction(id)?.state == .credited, "\(id) was answered")
        }
        try await store.close()

        let (again, againPort) = try await serve.launch(setup)
        defer { again.terminate() }
        let last = try await crash.submit(purchases, to: "http://127.0.0.1:\(againPort)") { _ in }
        #expect(last.count == purchases.count)
        #expect(Set(last.values).isSubset(of: ["delivered", "alreadyDelivered"]))
        let credited = decisions.filter { $0.value == "delivered" }.keys
        #expect(credited.allSatisfy { last[$0] == "alreadyDelivered" }, "answered before the stop: not credited twice")
        for user in 0..<WriterCrashTests.users {
            let (_, wallet) = try await serve.request(
                "GET", "http://127.0.0.1:\(againPort)/v1/wallet", user: "user-\(user)")
            let bought = purchases.filter { $0.user == "user-\(user)" }.count
            #expect((wallet["balances"] as? [String: Int])?["gold"] == 60 * bought)
        }
    }
}
