import Synchronization
import Testing

@testable import PurserChaos

/// How `purser chaos` hands its devices' purchases to its `--concurrency` lanes: round-robin, each device's in order.
@Suite struct RoundRobinForEachTests {
    /// One lane: the element with the most steps left first, then the elements in turn, so they end together.
    @Test func oneLaneTakesTheElementsInTurnTheLongestFirst() async throws {
        let order = Mutex<[String]>([])
        let counts = ["a": 2, "b": 1, "c": 4]
        let steps: (String) -> [String] = { element in (0..<counts[element]!).map { "\(element)\($0)" } }
        try await ["a", "b", "c"].roundRobinForEach(limit: 1, steps: steps) { _, step in
            order.withLock { $0.append(step) }
        }
        #expect(order.withLock { $0 } == ["c0", "c1", "a0", "c2", "b0", "a1", "c3"])
    }

    /// Many lanes: every step runs once, an element's steps one after another and in order, never more than `limit`
    /// at a time, and the elements finish together, not one after another.
    @Test func manyLanesKeepEachElementsOrderAndTheLimit() async throws {
        struct Tally: Sendable {
            var running = 0
            var most = 0
            var busy: Set<Int> = []
            var done: [Int: [Int]] = [:]
            /// Steps ended so far, when each element's last one ended.
            var ended = 0
            var finishedAt: [Int] = []
            var overlapped = false
        }
        let tally = Mutex(Tally())
        let steps: @Sendable (Int) -> [Int] = { element in Array(0..<(5 + element % 3)) }
        try await Array(0..<40).roundRobinForEach(limit: 8, steps: steps) { element, step in
            tally.withLock {
                $0.running += 1
                $0.most = max($0.most, $0.running)
                if !$0.busy.insert(element).inserted { $0.overlapped = true }
            }
            try await Task.sleep(for: .milliseconds(1))
            tally.withLock {
                $0.running -= 1
                $0.busy.remove(element)
                $0.done[element, default: []].append(step)
                $0.ended += 1
                if $0.done[element]?.count == steps(element).count { $0.finishedAt.append($0.ended) }
            }
        }
        let result = tally.withLock { $0 }
        #expect(result.most == 8)
        #expect(!result.overlapped, "two steps of one element ran at once")
        for element in 0..<40 { #expect(result.done[element] == Array(0..<(5 + element % 3)), "element \(element)") }
        // Together: no element is done before the last third of the 239 steps (each element's steps to the end
        // before the next element's, the first was done within the first 50).
        #expect(result.finishedAt.count == 40 && result.finishedAt.allSatisfy { $0 > 160 }, "\(result.finishedAt)")
    }

    @Test func theFirstErrorEndsTheRun() async throws {
        struct Stop: Error {}
        let started = Mutex(0)
        await #expect(throws: Stop.self) {
            let steps: (Int) -> [Int] = { _ in [0, 1, 2] }
            try await Array(0..<100).roundRobinForEach(limit: 4, steps: steps) { element, _ in
                started.withLock { $0 += 1 }
                if element == 3 { throw Stop() }
                try await Task.sleep(for: .milliseconds(1))
            }
        }
        #expect(started.withLock { $0 } < 300)
    }
}
