import PostgresNIO

/// `purser_settle_lock` (migration 7): the locks a settlement batch takes and the rows its rules read. Sent as an
/// unnamed statement, as every query is: no named statement outlives its transaction, so Purser runs behind a pooler
/// in transaction mode (pgbouncer `pool_mode = transaction`) as it does on a direct connection.
struct PostgresSettleLock {
    static let sql = "SELECT * FROM purser_settle_lock($1, $2, $3)"

    var orderIDs: [String]
    var transactionIDs: [String]
    /// Users a plan may credit without an order (support's).
    var users: [String]

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(orderIDs)
        bindings.append(transactionIDs)
        bindings.append(users)
        return bindings
    }

    var query: PostgresQuery { PostgresQuery(unsafeSQL: Self.sql, binds: makeBindings()) }
}

/// `purser_settle_write` (migration 17's signature): everything a settlement batch writes, as an unnamed statement
/// (`PostgresSettleLock` says why).
struct PostgresSettleWrite {
    static let sql = "SELECT purser_settle_write(\((1...60).map { "$\($0)" }.joined(separator: ", ")))"

    var writes: PostgresSettlementWrites

    func makeBindings() -> PostgresBindings {
        let w = writes
        var bindings = PostgresBindings(capacity: 60)
        for texts in [w.ids, w.originals, w.bundles, w.products, w.types] { bindings.append(texts) }
        bindings.append(w.quantities)
        bindings.append(w.purchaseDates)
        bindings.append(w.tokens)
        bindings.append(w.environments)
        bindings.append(w.revocationDates)
        for texts in [w.states, w.owners, w.orders, w.rejectionCodes, w.rejectionMessages] { bindings.append(texts) }
        bindings.append(w.recordedAt)
        bindings.append(w.revocationTypes)
        bindings.append(w.revocationPercentages)
        for texts in [w.appTransactionIDs, w.creditedBy, w.tokensForApple] { bindings.append(texts) }
        for texts in [w.boundIDs, w.boundStates, w.boundOwners, w.boundOrders] { bindings.append(texts) }
        bindings.append(w.boundAt)
        bindings.append(w.boundCreditedBy)
        bindings.append(w.boundTokensForApple)
        for texts in [w.grantTransactions, w.grantUsers, w.grantCurrencies] { bindings.append(texts) }
        bindings.append(w.grantAmounts)
        bindings.append(w.grantAt)
        for texts in [w.eventKeys, w.eventWebhookIDs, w.eventTopics, w.eventUsers] { bindings.append(texts) }
        bindings.append(w.eventSequences)
        bindings.append(w.eventPayloads)
        bindings.append(w.eventAt)
        let (users, last) = w.changedSequences
        bindings.append(users)
        bindings.append(last)
        bindings.append(w.fulfilledOrders)
        bindings.append(w.fulfilledTransactions)
        bindings.append(w.fulfilledAt)
        bindings.append(w.auditAt)
        for texts in [w.auditSubjects, w.auditSubjectIDs, w.auditEvents, w.auditCauses, w.auditDetails] {
            bindings.append(texts)
        }
        bindings.append(w.grantKinds)
        bindings.append(w.boundRevocationDates)
        bindings.append(w.boundRevocationTypes)
        bindings.append(w.boundRevocationPercentages)
        bindings.append(w.revokedIDs)
        bindings.append(w.revokedDates)
        bindings.append(w.revokedTypes)
        bindings.append(w.revokedPercentages)
        bindings.append(w.revokedAt)
        return bindings
    }

    var query: PostgresQuery { PostgresQuery(unsafeSQL: Self.sql, binds: makeBindings()) }
}
