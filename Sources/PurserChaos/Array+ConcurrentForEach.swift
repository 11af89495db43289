extension Array where Element: Sendable {
    /// Runs `body` for every element, at most `limit` at a time; the first error cancels the rest.
    func concurrentForEach(limit: Int, _ body: @escaping @Sendable (Element) async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var iterator = makeIterator()
            for _ in 0..<Swift.max(1, limit) {
                guard let element = iterator.next() else { break }
                group.addTask { try await body(element) }
            }
            while try await group.next() != nil {
                if let element = iterator.next() { group.addTask { try await body(element) } }
            }
        }
    }
}
