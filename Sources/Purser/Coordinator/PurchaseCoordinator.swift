import Foundation
import PurserCore

/// The purchase flow the app runs: order from the server → journal → pay with the order id as the account token
/// → submit → finish only when the server answers `finish: true` → close the journal entry. On launch, on returning
/// to the foreground, on login and when the network comes back it settles whatever StoreKit still holds unfinished,
/// one transaction at a time, with backoff; nothing is finished on a network error or a 5xx.
public actor PurchaseCoordinator {
    public struct Configuration: Sendable {
        public var retry: RetryPolicy
        /// Called at every named step; tests kill the app here.
        public var probe: PurchaseProbe
        /// Seeds the retry jitter; `nil` uses the system's random numbers.
        public var seed: UInt64?
        /// How to wait between retries.
        public var sleep: @Sendable (Duration) async throws -> Void
        public var now: @Sendable () -> Date

        public init(
            retry: RetryPolicy = RetryPolicy(), probe: PurchaseProbe = .none, seed: UInt64? = nil,
            sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
            now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.retry = retry
            self.probe = probe
            self.seed = seed
            self.sleep = sleep
            self.now = now
        }
    }

    /// How a transaction reached the coordinator; decides between `delivered` and `redelivered`.
    private enum Origin {
        case purchase, update, recovery
    }

    /// The app was killed at a probe, or shut down: nothing more happens in this coordinator.
    private struct Terminated: Error {}

    public nonisolated let events: AsyncStream<PurchaseEvent>
    private let eventSink: AsyncStream<PurchaseEvent>.Continuation
    private let api: PurserAPIClient
    private let journal: PurchaseJournal
    private let store: any StoreAdapter
    private let configuration: Configuration
    private let catalog: ProductCatalogCache
    private var random: SeededGenerator
    private var session: PurserSession?
    private var alive = true
    private var started = false
    /// Products with a `buy` in progress.
    private var buying: Set<String> = []
    /// Orders whose `buy` answered `storeBusy` in this run: their payment, when it lands, is news to the user (each
    /// is forgotten once its transaction arrives).
    private var stalledOrders: Set<OrderID> = []
    /// Transactions queued or being settled, with whoever waits for their outcome.
    private var claimed: [String: [CheckedContinuation<PurchaseEvent?, Never>]] = [:]
    /// Transactions this run finished, with the event it reported.
    private var settled: [String: PurchaseEvent] = [:]
    /// Settles one transaction at a time, in arrival order.
    private let serial = AsyncSerialLock()

    public init(api: PurserAPIClient, journal: PurchaseJournal, store: any StoreAdapter,
                configuration: Configuration = Configuration()) {
        self.api = api
        self.journal = journal
        self.store = store
        self.configuration = configuration
        self.catalog = ProductCatalogCache(api: api, store: store)
        self.random = SeededGenerator(seed: configuration.seed ?? UInt64.random(in: 0...UInt64.max))
        (events, eventSink) = AsyncStream.makeStream(of: PurchaseEvent.self)
    }

    // MARK: Life cycle

    /// Call at launch, before anything else: starts listening to StoreKit and settles what an earlier run left.
    public func start() async {
        guard alive, !started else { return }
        started = true
        await store.start { [weak self] update in await self?.receive(update) }
        await recover(.launch)
    }

    /// The app's user signed in; their purchases (and any left unfinished) are settled now.
    public func login(_ session: PurserSession) async {
        self.session = session
        await recover(.login)
    }

    /// The user signed out. Unfinished transactions wait for the next login.
    public func logout() {
        session = nil
    }

    /// Stops everything: no more submissions, finishes or events.
    public func shutdown() async {
        await terminate()
    }

    // MARK: Buying

    /// Buys `productID`: creates the order, journals it, pays, submits and finishes. Returns the purchase's event
    /// (also sent on `events`). Unfinished transactions of the same product are settled first, so StoreKit never
    /// answers with a bare `purchasing`.
    public func buy(_ productID: String, quantity: Int = 1) async throws(PurchaseError) -> PurchaseEvent {
        guard alive else { throw .terminated }
        guard let session else { throw .notSignedIn }
        guard buying.insert(productID).inserted else { throw .purchaseInProgress }
        defer { buying.remove(productID) }
        do {
            return try await purchase(productID, quantity: quantity, session: session)
        } catch is Terminated {
            throw .terminated
        } catch let error as PurchaseError {
            throw error
        } catch {
            throw .terminated
        }
    }

    private func purchase(_ productID: String, quantity: Int, session: PurserSession) async throws -> PurchaseEvent {
        for transaction in await store.unfinishedTransactions() where transaction.productID == productID {
            _ = try await process(transaction, origin: .recovery, waitIfClaimed: true)
        }
        if await store.unfinishedTransactions().contains(where: { $0.productID == productID }) {
            throw PurchaseError.earlierPurchaseUnfinished
        }
        let order: OrderResponse
        do {
            order = try await api.createOrder(productID: productID, quantity: quantity, as: session)
        } catch {
            throw PurchaseError.server(error)
        }
        try await step(.orderCreated)
        let entry = JournalEntry(id: order.orderId, userID: session.userID, productID: productID, quantity: quantity,
                                 createdAt: configuration.now())
        do {
            try await journal.begin(entry)
            try await step(.journaled)
            try await journal.apply(.paymentAdded, to: entry.id)
        } catch let error as JournalStoreError {
            throw PurchaseError.journal(error.description)
        } catch let error as PurchaseJournalError {
            throw PurchaseError.journal(error.description)
        }
        let result = await store.purchase(productID: productID, quantity: quantity, orderID: order.orderId)
        guard alive else { throw Terminated() }
        switch result {
        case .purchased(let transaction):
            if let event = try await process(transaction, origin: .purchase, waitIfClaimed: true) { return event }
            return emit(.pending(PendingPurchase(productID: productID, orderID: order.orderId,
                                                 transactionID: transaction.id, reason: .storeBusy)))
        case .deferred:
            _ = try? await journal.apply(.deferred, to: entry.id)
            return emit(.pending(PendingPurchase(productID: productID, orderID: order.orderId, transactionID: nil,
                                                 reason: .askToBuy)))
        case .cancelled:
            return await close(entry, reason: .cancelled)
        case .failed(let failure):
            return await close(entry, reason: failure.reason)
        case .stalled:
            stalledOrders.insert(order.orderId)
            return emit(.pending(PendingPurchase(productID: productID, orderID: order.orderId, transactionID: nil,
                                                 reason: .storeBusy)))
        }
    }

    /// The product list: the server's catalog joined with the store's names and prices, cached and refreshed when
    /// the server's list changes.
    public func products() async throws(ProductCatalogError) -> [PurchasableProduct] {
        guard let session else { throw ProductCatalogError(code: "not_signed_in", message: "sign in first") }
        return try await catalog.products(as: session)
    }

    // MARK: Recovery

    /// Settles every unfinished StoreKit transaction, oldest first, one at a time, then tidies the journal. Stops
    /// at the first transaction the server could not be reached for (the rest wait for the next trigger).
    public func recover(_ trigger: RecoveryTrigger) async {
        guard alive, let session else { return }
        do {
            for transaction in await store.unfinishedTransactions() {
                let event = try await process(transaction, origin: .recovery, waitIfClaimed: false)
                if case .pending(let pending) = event, pending.reason == .serverUnreachable { return }
            }
            try await tidyJournal(session: session)
        } catch {
            return
        }
    }

    /// Closes entries StoreKit no longer holds: decided ones whose finish went through before a crash, and ones
    /// whose payment was never added.
    private func tidyJournal(session: PurserSession) async throws {
        let unfinished = Set(await store.unfinishedTransactions().map(\.id))
        for entry in await journal.open where !buying.contains(entry.productID) {
            guard alive else { throw Terminated() }
            if entry.state == .decided, let id = entry.transactionID, !unfinished.contains(id) {
                _ = try? await journal.apply(.finished, to: entry.id)
            } else if entry.state == .created {
                _ = try? await journal.apply(.cancelled("payment_never_added"), to: entry.id)
                if entry.userID == session.userID {
                    _ = try? await api.cancelOrder(entry.id, reason: "payment_never_added", as: session)
                }
            }
        }
    }

    // MARK: Settling one transaction

    /// Settles `transaction` unless this run already did or is doing so (duplicate callbacks are coalesced).
    private func process(_ transaction: StoreTransaction, origin: Origin,
                         waitIfClaimed: Bool) async throws -> PurchaseEvent? {
        guard alive else { throw Terminated() }
        if let event = settled[transaction.id] { return waitIfClaimed ? event : nil }
        if claimed[transaction.id] != nil {
            guard waitIfClaimed else { return nil }
            return await withCheckedContinuation { claimed[transaction.id, default: []].append($0) }
        }
        claimed[transaction.id] = []
        var event: PurchaseEvent?
        defer {
            for waiter in claimed.removeValue(forKey: transaction.id) ?? [] { waiter.resume(returning: event) }
        }
        event = try await serial.withLock { try await self.settle(transaction, origin: origin) }
        return event
    }

    private func settle(_ transaction: StoreTransaction, origin: Origin) async throws -> PurchaseEvent {
        func pending(_ reason: PendingPurchaseReason, order: OrderID?) -> PurchaseEvent {
            emit(.pending(PendingPurchase(productID: transaction.productID, orderID: order,
                                          transactionID: transaction.id, reason: reason)))
        }
        guard let session else { return pending(.notSignedIn, order: transaction.orderID) }
        var entry = await journal.match(transactionID: transaction.id, orderID: transaction.orderID,
                                        productID: transaction.productID, user: session.userID)
        // A purchase is news to the user (delivered, not redelivered) when it answers a payment of this run (one in
        // progress, or one that outlasted `buy`'s wait) or an Ask to Buy approval, whichever path StoreKit reported
        // it on.
        let awaited = entry.map { $0.state.awaitsTransaction && stalledOrders.remove($0.id) != nil } ?? false
        let fresh = origin == .purchase || entry?.state == .deferred || awaited
            || (entry?.state.awaitsTransaction == true && buying.contains(transaction.productID))
        if let matched = entry {
            entry = try? await journal.apply(.purchased(transactionID: transaction.id), to: matched.id)
        }
        let orderID = entry?.id ?? transaction.orderID
        try await step(.paid)

        var request: SubmitTransactionRequest
        do {
            request = try await store.evidence(for: transaction)
        } catch {
            if let entry { _ = try? await journal.apply(.submissionFailed(error.description), to: entry.id) }
            return pending(.receiptUnavailable, order: orderID)
        }
        request.orderId = orderID?.description
        var answer: DecisionResponse?
        var lastError: PurserAPIError?
        for attempt in 0..<max(1, configuration.retry.maxAttempts) {
            guard alive else { throw Terminated() }
            do {
                answer = try await api.submit(request, as: session)
                break
            } catch {
                lastError = error
                if let entry { _ = try? await journal.apply(.submissionFailed(error.description), to: entry.id) }
                guard error.isRetryable, attempt + 1 < configuration.retry.maxAttempts else { break }
                let jitter = Double.random(in: 0.5..<1, using: &random)
                try? await configuration.sleep(configuration.retry.delay(afterAttempt: attempt, jitter: jitter))
            }
        }
        guard alive else { throw Terminated() }
        guard let answer else {
            let reason: PendingPurchaseReason =
                lastError?.isRetryable ?? true ? .serverUnreachable : .refused(lastError?.code ?? "refused")
            return pending(reason, order: orderID)
        }
        guard answer.finish else {
            let code = answer.reason?.code ?? answer.decision
            if let entry { _ = try? await journal.apply(.serverPending(code), to: entry.id) }
            return pending(.server(code), order: orderID)
        }
        if let entry { _ = try? await journal.apply(.decided(answer.decision), to: entry.id) }
        try await step(.decided)
        await store.finish(transaction)
        guard alive else { throw Terminated() }
        if let entry { _ = try? await journal.apply(.finished, to: entry.id) }
        let event = Self.event(for: answer, transaction: transaction, orderID: answer.orderId ?? orderID,
                               fresh: fresh)
        settled[transaction.id] = event
        try await step(.finished)
        return emit(event)
    }

    private static func event(for answer: DecisionResponse, transaction: StoreTransaction, orderID: OrderID?,
                              fresh: Bool) -> PurchaseEvent {
        let delivery = Delivery(transactionID: transaction.id, productID: transaction.productID, orderID: orderID,
                                grants: answer.grants)
        func failure(_ reason: PurchaseFailureReason) -> PurchaseEvent {
            .failed(PurchaseFailure(productID: transaction.productID, orderID: orderID,
                                    transactionID: transaction.id, reason: reason))
        }
        switch answer.decision {
        case "delivered", "alreadyDelivered": return fresh ? .delivered(delivery) : .redelivered(delivery)
        case "deliveredToOtherAccount": return .deliveredToOtherAccount(delivery)
        case "revoked": return failure(.refunded)
        default: return failure(.rejected(answer.reason?.code ?? answer.decision))
        }
    }

    // MARK: StoreKit updates

    private func receive(_ update: StoreUpdate) async {
        guard alive else { return }
        switch update {
        case .purchased(let transaction):
            _ = try? await process(transaction, origin: .update, waitIfClaimed: false)
        case .deferred(let productID, let orderID):
            let entry = await waitingEntry(orderID: orderID, productID: productID)
            if let entry { _ = try? await journal.apply(.deferred, to: entry.id) }
            emit(.pending(PendingPurchase(productID: productID, orderID: entry?.id ?? orderID, transactionID: nil,
                                          reason: .askToBuy)))
        case .failed(let productID, let orderID, let failure):
            if let entry = await waitingEntry(orderID: orderID, productID: productID) {
                _ = await close(entry, reason: failure.reason)
            }
        }
    }

    /// The open entry a failure or deferral is about: by order id, else the oldest payment of the product.
    private func waitingEntry(orderID: OrderID?, productID: String) async -> JournalEntry? {
        let waiting = await journal.open.filter { $0.productID == productID && $0.state.awaitsTransaction }
        if let orderID { return waiting.first { $0.id == orderID } }
        return waiting.first { $0.userID == session?.userID && $0.state == .paying }
    }

    /// Closes an entry whose payment never happened, and tells the server (best effort: a lost cancel leaves the
    /// order waiting, which costs nothing).
    /// Closes a payment that never charged: the journal entry ends cancelled (the user cancelled, however StoreKit
    /// reported it) or failed, and the server's order is cancelled.
    private func close(_ entry: JournalEntry, reason: PurchaseFailureReason) async -> PurchaseEvent {
        let event: JournalEvent = reason == .cancelled ? .cancelled("cancelled") : .failed(reason.code)
        _ = try? await journal.apply(event, to: entry.id)
        if let session, session.userID == entry.userID {
            _ = try? await api.cancelOrder(entry.id, reason: reason.code, as: session)
        }
        return emit(.failed(PurchaseFailure(productID: entry.productID, orderID: entry.id, transactionID: nil,
                                            reason: reason)))
    }

    // MARK: Plumbing

    @discardableResult
    private func emit(_ event: PurchaseEvent) -> PurchaseEvent {
        if alive { eventSink.yield(event) }
        return event
    }

    private func step(_ step: PurchaseStep) async throws {
        guard alive else { throw Terminated() }
        do {
            try await configuration.probe.check(step)
        } catch {
            await terminate()
            throw Terminated()
        }
    }

    private func terminate() async {
        guard alive else { return }
        alive = false
        eventSink.finish()
        await store.stop()
    }
}
