import Foundation
import PurserCore

// MARK: Spending

extension PurchaseCoordinator {
    /// Spends `amounts` (positive: what to take of each currency) from the signed-in user's wallet, exactly once.
    /// The id is journaled before the request; when no answer comes (a crash, a dropped connection) the spend stays
    /// journaled and is sent again with the same id at the next launch, login or recovery, where the server replays
    /// it instead of spending twice. Needs the server's `wallet.clientSpend` (else `.refused` with
    /// `client_spend_disabled`). Calling again with the id of a journaled spend resends that spend as first asked.
    public func spend(_ amounts: [String: Int64], reason: String, id: String)
        async throws(SpendError) -> SpendResult
    {
        guard alive else { throw .terminated }
        guard let session else { throw .notSignedIn }
        guard let spends else { throw .noJournal }
        guard !amounts.isEmpty, amounts.values.allSatisfy({ $0 > 0 }) else { throw .invalidAmounts }
        let asked = PendingSpend(
            id: id, userID: session.userID, amounts: amounts, reason: reason, createdAt: configuration.now())
        do {
            try await spends.record(asked)
        } catch {
            throw .journal(error.description)
        }
        let pending = await spends.spend(id) ?? asked
        switch await send(pending, session: session, journal: spends) {
        case .spent(let result): return result
        case .refused(let error): throw .refused(error)
        case .unanswered(let error): throw .unsettled(id: id, error)
        }
    }

    /// Sends again each journaled spend of the signed-in user, oldest first, reporting each answer on
    /// `spendOutcomes`; stops at the first that gets no answer (the rest wait for the next trigger).
    func resendSpends(session: PurserSession) async {
        guard let spends else { return }
        for pending in await spends.all where pending.userID == session.userID {
            guard alive else { return }
            switch await send(pending, session: session, journal: spends) {
            case .spent(let result): emit(.spent(result))
            case .refused(let error): emit(.refused(id: pending.id, code: error.code))
            case .unanswered: return
            }
        }
    }

    private enum Sent {
        case spent(SpendResult)
        case refused(PurserAPIError)
        case unanswered(PurserAPIError)
    }

    /// One send of `pending`. An answer either way closes its journal entry (and a spend applied changed the
    /// wallet); no answer (or one that does not decode) keeps it, since the server may have applied it.
    private func send(_ pending: PendingSpend, session: PurserSession, journal: SpendJournal) async -> Sent {
        let request = WalletSpendRequest(
            id: pending.id, amounts: pending.amounts.mapValues { -$0 }, reason: pending.reason)
        // One spend, one trace, across its resends.
        let traceID = (try? await journal.traceID(of: pending.id)) ?? pending.traceID
        do {
            let answer = try await api.spend(request, as: session, traceID: traceID)
            try? await journal.close(pending.id)
            walletChanged()
            return .spent(SpendResult(answer))
        } catch  where error.kind == .refused {
            try? await journal.close(pending.id)
            return .refused(error)
        } catch {
            try? await journal.noteUnanswered(pending.id, error: error.description)
            return .unanswered(error)
        }
    }
}
