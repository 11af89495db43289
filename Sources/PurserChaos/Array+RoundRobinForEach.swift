extension Array where Element: Sendable {
    /// Runs every element's steps, each element's in order, one step per turn and at most `limit` steps at a time.
    /// The next turn goes to the element with the most steps left, and among equals to the one that waited longest.
    ///
    /// So the elements advance together and end together, and `limit` steps stay in flight until the run's last
    /// few. Running each element's steps to the end before taking another (`concurrentForEach`) leaves the last
    /// wave of elements, and then the ones with the most steps, finishing alone: the run's last tenth slower than
    /// the others for that reason alone. The first error cancels the rest.
    func roundRobinForEach<Step: Sendable>(
        limit: Int, steps: (Element) -> [Step],
        _ body: @escaping @Sendable (Element, Step) async throws -> Void
    ) async throws {
        let plans = map { (element: $0, steps: steps($0)) }
        var line = TurnLine(longest: plans.map(\.steps.count).max() ?? 0)
        for (index, plan) in plans.enumerated() { line.enqueue(index, left: plan.steps.count) }
        try await withThrowingTaskGroup(of: Int.self) { group in
            var taken = [Int](repeating: 0, count: plans.count)
            func startNext() {
                guard let index = line.next() else { return }
                let plan = plans[index]
                let step = plan.steps[taken[index]]
                taken[index] += 1
                group.addTask {
                    try await body(plan.element, step)
                    return index
                }
            }
            for _ in 0..<Swift.max(1, limit) { startNext() }
            while let index = try await group.next() {
                line.enqueue(index, left: plans[index].steps.count - taken[index])
                startNext()
            }
        }
    }
}

/// The elements waiting for a turn, by steps left (a queue per count, first in first out).
private struct TurnLine {
    private var queues: [[Int]]
    private var heads: [Int]
    private var highest = 0

    init(longest: Int) {
        queues = Array(repeating: [], count: longest + 1)
        heads = Array(repeating: 0, count: longest + 1)
    }

    /// Puts `element` at the back of the queue of elements with `left` steps left (none left: it is done).
    mutating func enqueue(_ element: Int, left: Int) {
        guard left > 0 else { return }
        queues[left].append(element)
        highest = Swift.max(highest, left)
    }

    /// The first element of the queue with the most steps left.
    mutating func next() -> Int? {
        while highest > 0 {
            if heads[highest] < queues[highest].count {
                defer { heads[highest] += 1 }
                return queues[highest][heads[highest]]
            }
            queues[highest] = []
            heads[highest] = 0
            highest -= 1
        }
        return nil
    }
}
