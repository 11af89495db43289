import Foundation
import NIOCore
import NIOHTTP1
import PurserStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A closed-loop HTTP load: `clients` workers, each with its own keep-alive connection (`BenchConnection`), each
/// sending its next request when the last one answered. With several servers (`ports`), connection `i` goes to
/// server `i % ports.count`, as a load balancer that spreads connections round robin would send it. Every rate
/// `bench submit` prints comes from here, so the trivial route and the submissions are measured through the same
/// client at the same concurrency.
struct BenchLoad: Sendable {
    let host: String
    let ports: [Int]
    let clients: Int
    /// The servers' own ledger stores, whose write counts say what each phase cost the database.
    let ledgers: [any LedgerStore]

    /// The servers' write counts so far, added up.
    func writeCounts() -> LedgerWriteCounts {
        ledgers.map { $0.writeCounts() }.reduce(LedgerWriteCounts(settlements: 0, statements: 0, commits: 0), +)
    }

    /// One phase's figures: its results in item order, the wall time it took and the CPU time this process (server
    /// and client together) spent meanwhile. The CPU time per item hardly depends on what else runs on the machine.
    struct Phase<Value: Sendable>: Sendable {
        var results: [Value]
        var seconds: Double
        var cpuSeconds: Double
        var rate: Double { Double(results.count) / seconds }
        var cpuMicrosecondsPerItem: Double { cpuSeconds * 1_000_000 / Double(results.count) }
    }

    /// Runs `request(connection, i)` for every `i` in `0..<count` on `clients` workers and times the whole phase
    /// (the connections are opened before the clock starts).
    func run<Value: Sendable>(
        _ label: String, count: Int,
        _ request: @escaping @Sendable (inout BenchConnection, Int) async throws -> Value
    ) async throws -> Phase<Value> {
        let channels = try await withThrowingTaskGroup(
            of: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>.self
        ) { group in
            for client in 0..<clients {
                group.addTask { try await BenchConnection.connect(host: host, port: ports[client % ports.count]) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let progress = BenchProgress(label, total: count)
        let cpuStart = Self.processCPUSeconds()
        let start = ContinuousClock.now
        let pairs = try await withThrowingTaskGroup(of: [(Int, Value)].self) { workers in
            for channel in channels {
                workers.addTask {
                    try await channel.executeThenClose { inbound, outbound in
                        var connection = BenchConnection(inbound: inbound, outbound: outbound, host: host)
                        var done: [(Int, Value)] = []
                        while let index = progress.claim() {
                            done.append((index, try await request(&connection, index)))
                            progress.complete()
                        }
                        return done
                    }
                }
            }
            return try await workers.reduce(into: [(Int, Value)]()) { $0 += $1 }
        }
        let seconds = (ContinuousClock.now - start).microseconds / 1_000_000
        return Phase(
            results: pairs.sorted { $0.0 < $1.0 }.map(\.1), seconds: seconds,
            cpuSeconds: Self.processCPUSeconds() - cpuStart)
    }

    /// CPU seconds (user and system, every thread) this process has used so far.
    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }
}
