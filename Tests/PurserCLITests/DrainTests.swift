import Foundation
import PurserChaos
import Synchronization
import Testing

/// `purser serve` stopped as a deploy stops it (SIGTERM), seen as a load balancer sees it: for `http.drainSeconds`
/// `/ready` answers 503 `draining` on new connections and on a kept-alive one while every other request is still
/// answered; only then does the listener close; a request in flight all along is answered; the process exits 0 and
/// logs when the drain started and when it ended.
@Suite struct DrainTests {
    let serve = ServeCommandTests()
    /// Long enough that, beside fifty other `purser` processes on two cores, a round of the probes below fits in it
    /// (with 3 s, CI's first round took 4.2 s and the kept-alive connection was closed before its first probe).
    static let drainSeconds = 6

    /// What the load balancer saw, in order.
    enum Seen: Equatable {
        case ready, draining, otherRequestAnswered, refused
        case answered(Int)
    }

    @Test func readinessGoesDrainingBeforeAnyConnectionIsRefused() async throws {
        let directory = try serve.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try await serve.simulatedServe(in: directory)
        defer { setup.simulator.terminate() }
        let (server, port) = try await serve.launch(
            setup.arguments,
            // The idle timeout far off: on a loaded machine the test's own pauses must not close the kept-alive one.
            environment: setup.environment.merging([
                "PURSER_HTTP_DRAIN_SECONDS": "\(Self.drainSeconds)", "PURSER_HTTP_IDLE_TIMEOUT_SECONDS": "600",
            ]) { $1 })
        defer { server.terminate() }

        let keptAlive = try await HTTPConnection.open(port: port)
        defer { keptAlive.disconnect() }
        let before = try await keptAlive.get("/ready")
        #expect(before.status == 200 && before.body == #"{"status":"ready"}"#)
        // A request in flight across the whole drain: its head and half its body now, the rest after the drain.
        let body = #"{"productId": "gold60"}"#
        let inFlight = try await HTTPConnection.open(port: port)
        defer { inFlight.disconnect() }
        try await inFlight.write(
            "POST /v1/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Purser-User: kim\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n" + body.prefix(10))

        let stopped = ContinuousClock.now
        server.terminate()
        var seen: [Seen] = []
        var keptAliveSaw: [Int] = []
        var keptAliveFailed: String?
        var refusedAfter: Duration?
        while refusedAfter == nil, ContinuousClock.now - stopped < .seconds(30) {
            // The kept-alive connection first in each round: its first probe goes out right after SIGTERM.
            if keptAliveFailed == nil {
                do { keptAliveSaw.append(try await keptAlive.get("/ready").status) } catch {
                    keptAliveFailed = "failed (\(error)) \(ContinuousClock.now - stopped) after SIGTERM"
                }
            }
            do {
                let fresh = try await HTTPConnection.open(port: port)
                defer { fresh.disconnect() }
                let (status, answer) = try await fresh.get("/ready")
                let draining = status == 503 && answer.contains(#""code":"draining""#)
                seen.append(status == 200 ? .ready : draining ? .draining : .answered(status))
                if seen.last == .draining, try await fresh.get("/health").status == 200 {
                    seen.append(.otherRequestAnswered)
                }
            } catch is HTTPConnection.Closed {
                seen.append(.refused)
                refusedAfter = ContinuousClock.now - stopped
            }
            try await Task.sleep(for: .milliseconds(50))
        }

        let firstDraining = try #require(seen.firstIndex(of: .draining), "never draining: \(seen)")
        let firstRefused = try #require(seen.firstIndex(of: .refused), "never refused: \(seen)")
        #expect(firstDraining < firstRefused, "\(seen)")
        #expect(seen[..<firstDraining].allSatisfy { $0 == .ready }, "\(seen)")
        #expect(
            seen[firstDraining..<firstRefused].allSatisfy { [.draining, .otherRequestAnswered].contains($0) }, "\(seen)"
        )
        #expect(seen.contains(.otherRequestAnswered), "requests are still answered while draining: \(seen)")
        #expect(
            keptAliveSaw.contains(503),
            "the kept-alive connection is answered draining too: \(keptAliveSaw) \(keptAliveFailed ?? "")")
        #expect(try #require(refusedAfter) >= .seconds(Self.drainSeconds), "the listener stayed open for the drain")

        // The request in flight all along is answered after the listener closed.
        try await inFlight.write(String(body.dropFirst(10)))
        let (created, order) = try await inFlight.response()
        #expect(created == 201 && order.contains("appAccountToken"), "\(created) \(order)")

        #expect(await server.waitUntilExit() == 0, "\(server.output.suffix(2_000))")
        let output = server.output
        let lines = [
            "drain started: /ready answers 503 draining for \(Self.drainSeconds) s",
            "drain ended after \(Self.drainSeconds) s", "stopped: every request was answered",
        ]
        for line in lines { #expect(output.contains(line), "\(output.suffix(2_000))") }
    }
}
