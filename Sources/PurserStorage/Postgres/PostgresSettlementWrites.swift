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
    // Credit grants.
    var grantTransactions = Texts(), grantUsers = Texts(), grantCurrencies = Texts(), grantAmounts = Numbers()
    var grantAt = Numbers()
    // Outbox events and the owners' last sequence afterwards.
    var eventKeys = Texts(), eventWebhookIDs = Texts(), eventTopics = Texts(), eventUsers = Texts()
    var eventSequences = Numbers(), eventPayloads = Texts(), eventAt = Numbers()
    var sequences: [String: Int64]
    private var sequencesChanged: Set<String> = []
    // Fulfilled orders and audit records.
    var fulfilledOrders = Texts(), fulfilledTransactions = Texts(), fulfilledAt = Numbers()
    var auditAt = Numbers(), auditSubjects = Texts(), auditSubjectIDs = Texts(), auditEvents = Texts()
    var auditCauses = Texts(), auditDetails = Texts()

    /// Writes starting from `sequences`, each candidate owner's last webhook sequence as the batch read it.
    init(sequences: [String: Int64]) {
        self.sequences = sequences
    }

    /// The owners whose sequence changed, and their last sequence now.
    var changedSequences: (users: Texts, last: Numbers) {
        let users = sequencesChanged.sorted()
        return (Texts(users), Numbers(users.map { sequences[$0] }))
    }

    /// Adds what `plan` writes at `now`.
    mutating func add(_ plan: LedgerPlan, now: Date) throws {
        let at = now.millis
        switch plan.write {
        case .none:
            break
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
            try addGrantsAndEvent(record, cause: plan.source?.category, at: now)
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

    /// The credit's grants and its outbox event, numbered as the owner's next, for a record that is credited.
    private mutating func addGrantsAndEvent(_ record: LedgerTransaction, cause: String?, at now: Date) throws {
        guard record.state == .credited, let owner = record.ownerID else { return }
        let id = record.transaction.transactionID
        for (currency, amount) in record.grants.sorted {
            grantTransactions.append(id)
            grantUsers.append(owner.rawValue)
            grantCurrencies.append(currency)
            grantAmounts.append(amount)
            grantAt.append(now.millis)
        }
        guard let last = sequences[owner.rawValue] else {
            throw StorageError(.corrupt, "the webhook sequence of \(owner) was not locked for this settlement")
        }
        let sequence = last + 1
        sequences[owner.rawValue] = sequence
        sequencesChanged.insert(owner.rawValue)
        let event = OutboxEvent.credited(record, owner: owner, cause: cause, at: Date(millis: now.millis))
        eventKeys.append(event.idempotencyKey)
        eventWebhookIDs.append(event.webhookID)
        eventTopics.append(event.type.rawValue)
        eventUsers.append(owner.rawValue)
        eventSequences.append(sequence)
        eventPayloads.append(try event.body(sequence: sequence))
        eventAt.append(event.at.millis)
    }
}
