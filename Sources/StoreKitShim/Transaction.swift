import AppStoreSimulator
import Foundation

/// StoreKit 2's transaction, for the members Purser's adapter uses.
public struct Transaction: Sendable, Hashable, Identifiable {
    public let id: UInt64
    public let productID: String
    public let purchaseDate: Date
    public let purchasedQuantity: Int
    public let appAccountToken: UUID?
    let jws: String
    let process: SimulatedProcess

    init(_ entry: DeviceTransaction, process: SimulatedProcess) {
        id = UInt64(entry.transactionID ?? "") ?? 0
        productID = entry.productID
        purchaseDate = entry.purchaseDate ?? Date(timeIntervalSince1970: 0)
        purchasedQuantity = entry.quantity
        appAccountToken = entry.appAccountToken
        jws = entry.signedTransaction ?? ""
        self.process = process
    }

    public static func == (lhs: Transaction, rhs: Transaction) -> Bool { lhs.id == rhs.id && lhs.jws == rhs.jws }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// Tells the device the app delivered the purchase.
    public func finish() async {
        await process.device.finishTransaction(process, queueID: String(id))
    }

    /// Unfinished transactions first, then purchases made outside the app, as long as the app runs.
    public static var updates: Transactions { Transactions(source: .updates, process: SimulatedProcess.current) }

    /// The transactions the app has not finished.
    public static var unfinished: Transactions { Transactions(source: .unfinished, process: SimulatedProcess.current) }

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

/// StoreKit 2's verification wrapper. The simulator signs genuinely, so its transactions arrive `verified`; the
/// server verifies the JWS itself either way.
public enum VerificationResult<SignedType: Sendable>: Sendable {
    case unverified(SignedType, VerificationError)
    case verified(SignedType)

    public enum VerificationError: Error, Sendable {
        case invalidSignature
    }

    public var unsafePayloadValue: SignedType {
        switch self {
        case .unverified(let value, _), .verified(let value): value
        }
    }
}

extension VerificationResult where SignedType == Transaction {
    /// The signed transaction as Apple issued it.
    public var jwsRepresentation: String { unsafePayloadValue.jws }
}
