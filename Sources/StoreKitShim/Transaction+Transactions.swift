import AppStoreSimulator

extension Transaction {
    /// An asynchronous sequence of transactions (`updates`, `unfinished`, `currentEntitlements`).
    public struct Transactions: AsyncSequence, Sendable {
        public typealias Element = VerificationResult<Transaction>

        enum Source: Sendable { case updates, unfinished, currentEntitlements }

        let source: Source
        let process: SimulatedProcess?

        public struct AsyncIterator: AsyncIteratorProtocol {
            let process: SimulatedProcess?
            var base: AsyncStream<DeviceTransaction>.AsyncIterator?
            let source: Source

            public mutating func next() async -> VerificationResult<Transaction>? {
                guard let process else { return nil }
                if base == nil {
                    switch source {
                    case .updates:
                        base = process.device.transactionUpdates(process).makeAsyncIterator()
                    case .unfinished:
                        base = Transactions.finite(process.device.unfinishedTransactions(process))
                    case .currentEntitlements:
                        base = Transactions.finite(await process.device.currentEntitlements(process))
                    }
                }
                guard let entry = await base?.next() else { return nil }
                return .verified(Transaction(entry, process: process))
            }
        }

        /// `entries`, then the end.
        private static func finite(_ entries: [DeviceTransaction]) -> AsyncStream<DeviceTransaction>.AsyncIterator {
            let (stream, continuation) = AsyncStream.makeStream(of: DeviceTransaction.self)
            for entry in entries { continuation.yield(entry) }
            continuation.finish()
            return stream.makeAsyncIterator()
        }

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(process: process, base: nil, source: source)
        }
    }
}
