import Foundation
import PurserCore
import PurserWebhooks

/// Everything a settlement batch writes, as the column arrays `purser_settle_write` takes: each plan of the batch
/// adds its rows in order. Webhook sequences are numbered here, from each owner's last one as the batch read it
/// under lock, so every event's body is written whole, as on SQLite.
struct PostgresSettlementWrites: Sendable {
    typealias Texts = PostgresNullableArray<String>
    typealias Numbers = PostgresNullableArray<Int64>

    // New transactions.
    var ids = Texts(), originals = Texts(), bundles = Texts(), products = Texts(), types = Texts()
    var quantities = Numbers(), purchaseDates = Numbers(), tokens = Texts(), environments = Texts()
    var revocationDates = Numbers(), states = Texts(), owners = Texts(), orders = Texts()
    var rejectionCodes = Texts(), rejectionMessages = Texts(), recordedAt = Numbers()
    var revocationTypes = Texts(), revocationPercentages = Numbers(), appTransactionIDs = Texts()
    var creditedBy = Texts(), tokensForApple = Texts()
    // Unbound transactions bound now.
    var boundIDs = Texts(), boundStates = Texts(), boundOwners = Texts(), boundOrders = Texts(), boundAt = Numbers()
    var boundCreditedBy = Texts(), boundTokensForApple = Texts()
    var boundRevocationDates = Numbers(), boundRevocationTypes = Texts(), boundRevocationPercentages = Numbers()
    // Credited transactions revoked now (their signed data carries a refund the ledger had not taken back).
    var revokedIDs = Texts(), revokedDates = Numbers(), revokedTypes = Texts(), revokedPercentages = Numbers()
    var revokedAt = Numbers()
    // Grants: the credits, and the revokes of shares Apple refunded before the credit.
    var grantTransactions = Texts(), grantUsers = Texts(), grantCurrencies = Texts(), grantAmounts = Numbers()
    var grantKinds = Texts(), grantAt = Numbers()
    // Outbox events and the owners' last sequence afterwards.
    var eventKeys = Texts(), eventWebhookIDs = Texts(), eventTopics = Texts(), eventUsers = Texts()
    var eventSequences = Numbers(), eventPayloads = Texts(), eventAt = Numbers()
    var sequences: [String: Int64]
    private var sequencesChanged: Set<String> = []
    /// What every event is stamped with: a random webhook id, the app.
    let outbox: OutboxIdentity
    // Fulfilled orders and audit records.
    var fulfilledOrders = Texts(), fulfilledTransactions = Texts(), fulfilledAt = Numbers()
    var auditAt = Numbers(), auditSubjects = Texts(), auditSubjectIDs = Texts(), auditEvents = Texts()
    var auditCauses = Texts(), auditDetails = Texts()

    /// Writes starting from `sequences`, each candidate owner's last webhook sequence as the batch read it.
    init(sequences: [String: Int64], outbox: OutboxIdentity) {
        self.sequences = sequences
        self.outbox = outbox
    }

    /// The owners whose sequence changed, and their last sequence now.
    var changedSequences: (users: Texts, last: Numbers) {
        let users = sequencesChanged.sorted()
        return (Texts(users), Numbers(users.map { sequences[$0] }))
    }

    /// Adds what `plan` writes at `now`; a revoke it makes is the transaction's `revokeNumber`-th.
    mutating func add(_ plan: LedgerPlan, now: Date, revokeNumber: Int = 1) throws {
        let at = now.millis
        switch plan.write {
        case .none:
            break
        case .revoke(let record):
            revokedIDs.append(record.transaction.transactionID)
            revokedDates.append(record.transaction.revocationDate?.millis)
            revokedTypes.append(record.transaction.revocationType?.rawValue)
            revokedPercentages.append(record.transaction.revocationPercentage.map(Int64.init))
            revokedAt.append(at)
        case .insert(let record):
            let t = record.transaction
            ids.append(t.transactionID)
            originals.append(t.originalTransactionID)
            bundles.append(t.bundleID)
            products.append(t.productID)
            types.append(t.type)
            quantities.append(Int64(t.quantity))
            purchaseDates.append(t.purchaseDate.millis)
            tokens.append(t.appAccountToken?.description)
            environments.append(t.environment.rawValue)
            revocationDates.append(t.revocationDate?.millis)
            states.append(record.state.rawValue)
            owners.append(record.ownerID?.rawValue)
            orders.append(record.orderID?.description)
            rejectionCodes.append(record.rejection?.code)
            rejectionMessages.append(record.rejection?.message)
            recordedAt.append(at)
            revocationTypes.append(t.revocationType?.rawValue)
            revocationPercentages.append(t.revocationPercentage.map(Int64.init))
            appTransactionIDs.append(t.appTransactionID)
            creditedBy.append(plan.creditedBy)
            tokensForApple.append(plan.appAccountTokenForApple?.description)
            try addGrantsAndEvent(record, cause: plan.source?.category, at: now)
        case .bind(let record):
            boundIDs.append(record.transaction.transactionID)
            boundStates.append(record.state.rawValue)
            boundOwners.append(record.ownerID?.rawValue)
            boundOrders.append(record.orderID?.description)
            boundAt.append(at)
            boundCreditedBy.append(plan.creditedBy)
            boundTokensForApple.append(plan.appAccountTokenForApple?.description)
            boundRevocationDates.append(record.transaction.revocationDate?.millis)
            boundRevocationTypes.append(record.transaction.revocationType?.rawValue)
            boundRevocationPercentages.append(record.transaction.revocationPercentage.map(Int64.init))
            try addGrantsAndEvent(record, cause: plan.source?.category, at: now)
        }
        if let revoke = plan.revoke, let record = plan.written {
            try addGrants(try revoke.grantRows, kind: "revoke", of: revoke.transactionID, owner: revoke.owner, at: now)
            if revoke.writesEvent {
                try addEvent(
                    try .revoke(
                        record, owner: revoke.owner, revoked: revoke.adjustment.revoked,
                        shortfall: revoke.adjustment.shortfall, previous: revoke.previous, share: revoke.share,
                        type: revoke.type, number: revokeNumber, at: now))
            }
        }
        if let orderID = plan.fulfilledOrder, let transactionID = plan.written?.transaction.transactionID {
            fulfilledOrders.append(orderID.description)
            fulfilledTransactions.append(transactionID)
            fulfilledAt.append(at)
        }
        for event in plan.audit {
            auditAt.append(event.at.millis)
            auditSubjects.append(event.subject.rawValue)
            auditSubjectIDs.append(event.subjectID)
            auditEvents.append(event.event)
            auditCauses.append(event.cause)
            auditDetails.append(event.detail)
        }
    }

    /// The credit's grants and its outbox event, numbered as the owner's next, for a record this plan credits.
    private mutating func addGrantsAndEvent(_ record: LedgerTransaction, cause: String?, at now: Date) throws {
        guard record.state == .credited || record.state == .revoked, let owner = record.ownerID else { return }
        try addGrants(record.grants.money, kind: "credit", of: record.transaction.transactionID, owner: owner, at: now)
        try addEvent(.credited(record, owner: owner, cause: cause, at: Date(millis: now.millis)))
    }

    /// Grant rows of `kind`, one per currency of `amounts` (signed as they are).
    private mutating func addGrants(_ amounts: Amounts, kind: String, of id: String, owner: UserID, at now: Date)
        throws
    {
        for (currency, amount) in amounts.sorted {
            grantTransactions.append(id)
            grantUsers.append(owner.rawValue)
            grantCurrencies.append(currency)
            grantAmounts.append(amount)
            grantKinds.append(kind)
            grantAt.append(now.millis)
        }
    }

    /// An outbox event, numbered as its owner's next.
    private mutating func addEvent(_ event: OutboxEvent) throws {
        let owner = event.owner
        guard let last = sequences[owner.rawValue] else {
            throw StorageError(.corrupt, "the webhook sequence of \(owner) was not locked for this settlement")
        }
        let sequence = last + 1
        sequences[owner.rawValue] = sequence
        sequencesChanged.insert(owner.rawValue)
        eventKeys.append(event.idempotencyKey)
        eventWebhookIDs.append(outbox.nextWebhookID(at: event.at))
        eventTopics.append(event.type.rawValue)
        eventUsers.append(owner.rawValue)
        eventSequences.append(sequence)
        eventPayloads.append(try event.body(sequence: sequence, bundleID: outbox.bundleID))
        eventAt.append(event.at.millis)
    }
}
