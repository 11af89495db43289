import AppStoreSimulator

extension Transaction {
    /// An asynchronous sequence of transactions (`updates`, `unfinished`).
    public struct Transactions: AsyncSequence, Sendable {
        public typealias Element = VerificationResult<Transaction>

        enum Source: Sendable { case updates, unfinished }

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
                        let (stream, continuation) = AsyncStream.makeStream(of: DeviceTransaction.self)
                        for transaction in process.device.unfinishedTransactions(process) {
                            continuation.yield(transaction)
                        }
                        continuation.finish()
                        base = stream.makeAsyncIterator()
                    }
                }
                guard let entry = await base?.next() else { return nil }
                return .verified(Transaction(entry, process: process))
            }
        }

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(process: process, base: nil, source: source)
        }
    }
}
