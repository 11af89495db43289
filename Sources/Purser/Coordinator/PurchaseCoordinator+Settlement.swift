import PurserCore

// MARK: Settling one transaction

extension PurchaseCoordinator {
    /// Settles `transaction` unless this run already did or is doing so (duplicate callbacks are coalesced).
    func process(_ transaction: StoreTransaction, origin: Origin, waitIfClaimed: Bool) async throws -> PurchaseEvent? {
        guard alive else { throw Terminated() }
        if origin != .restore, let event = settled[transaction.id] { return waitIfClaimed ? event : nil }
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

    /// Matches `transaction` to its journal entry, submits it (retrying what is worth retrying) and obeys the
    /// answer: finishes the transaction only on `finish: true`, and reports the event `DecisionEventRule` chooses.
    private func settle(_ transaction: StoreTransaction, origin: Origin) async throws -> PurchaseEvent {
        func pending(_ reason: PendingPurchaseReason, order: OrderID?) -> PurchaseEvent {
            emit(
                .pending(
                    PendingPurchase(
                        productID: transaction.productID, orderID: order,
                        transactionID: transaction.id, reason: reason)))
        }
        guard let session else {
            // Held, not sent: `login` (or `start(session:)`) settles it and reports what became of it. Telling a
            // user to sign in while the app is restoring their session at launch would be wrong.
            return .pending(
                PendingPurchase(
                    productID: transaction.productID, orderID: transaction.orderID, transactionID: transaction.id,
                    reason: .notSignedIn))
        }
        // A restored purchase belongs to the entry that names it or its order, never to a payment still waiting for
        // its own transaction of the same product.
        var entry =
            origin == .restore
            ? await journal.match(transactionID: transaction.id, orderID: transaction.orderID)
            : await journal.match(
                transactionID: transaction.id, orderID: transaction.orderID,
                productID: transaction.productID, user: session.userID)
        // A purchase is news to the user (delivered, not redelivered) when it answers a payment of this run (one in
        // progress, or one that outlasted `buy`'s wait) or an Ask to Buy approval, whichever path StoreKit reported
        // it on.
        let awaited = entry.map { $0.state.awaitsTransaction && stalledOrders.remove($0.id) != nil } ?? false
        let fresh =
            origin == .purchase || entry?.state == .deferred || awaited
            || (entry?.state.awaitsTransaction == true && buying.contains(transaction.productID))
        if let matched = entry {
            entry = try? await journal.apply(.purchased(transactionID: transaction.id), to: matched.id)
        }
        let orderID = entry?.id ?? transaction.orderID
        // One purchase, one trace: its entry's (every submission and retry of this settlement carries it).
        let traceID = await self.traceID(of: entry)
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
                answer = try await api.submit(request, as: session, traceID: traceID)
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
        let rule = DecisionEventRule(transaction: transaction, orderID: orderID, fresh: fresh)
        guard answer.finish else {
            if let entry { _ = try? await journal.apply(.serverPending(answer.code), to: entry.id) }
            return emit(rule.event(for: answer))
        }
        if let entry { _ = try? await journal.apply(.decided(answer.decision), to: entry.id) }
        try await step(.decided)
        await store.finish(transaction)
        guard alive else { throw Terminated() }
        if let entry { _ = try? await journal.apply(.finished, to: entry.id) }
        let event = rule.event(for: answer)
        settled[transaction.id] = event
        try await step(.finished)
        return emit(event)
    }

    /// The trace id of `entry`'s requests: the one it keeps, or a new one journaled for it (an entry written before
    /// trace ids). A transaction no entry knows (bought on another device, or its entry long gone) gets a new trace
    /// for this settlement, kept across its retries.
    func traceID(of entry: JournalEntry?) async -> String {
        guard let entry else { return TraceContext.newTraceID() }
        if let known = try? await journal.traceID(of: entry.id) { return known }
        return entry.traceID ?? TraceContext.newTraceID()
    }
}
