import Foundation
import HTTPTypes
import Hummingbird
import PurserCore
import PurserStorage

extension ConsoleRoutes {
    /// Gives a goodwill credit, or asks for it: an admin's, and a support operator's within their `GrantLimits`, is
    /// recorded as `granted` (counting towards the operator's day) and credited at once; anything more is recorded
    /// as `pending` and waits on the approvals page for a second operator. The ledger decides which, in the one
    /// database transaction that records it (`recordConsoleGrant(_:within:)`), so grants asked at once never give
    /// more than the day's limit together. Recording comes first, by the form's key, so a second click finds the
    /// first record and neither credits twice nor turns a request into a credit.
    func give(_ grant: ConsoleGrant, request: Request, _ signedIn: SignedIn) async throws -> Response {
        let limits = signedIn.may(.admin) ? nil : grantLimits.of(signedIn.person)
        let recorded = try await store.recordConsoleGrant(grant, within: limits)
        guard recorded.state == .granted else {
            return ConsolePage.redirect(to: Self.userPath(recorded.userID) + "&requested=1")
        }
        try await credit(recorded, cause: "support by \(recorded.requestedBy)")
        return ConsolePage.redirect(to: Self.userPath(recorded.userID) + "&credited=1")
    }

    /// The deposit of a goodwill credit, once by its id (`goodwill-<id>`), audited with `cause`.
    func credit(_ grant: ConsoleGrant, cause: String) async throws {
        _ = try await wallets.apply(
            WalletService.Body(
                id: "goodwill-\(grant.id)", amounts: [grant.currency: grant.amount], reason: grant.reason,
                metadata: nil),
            to: UserID(grant.userID), cause: cause)
    }

    /// The requests that wait for a second operator, oldest first, each with approve and decline for whoever may.
    func approvals(_ request: Request, signedIn: SignedIn) async throws -> Response {
        try await approvals(request, signedIn: signedIn, notice: nil)
    }

    func approvals(
        _ request: Request, signedIn: SignedIn, notice: String?, error: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let dates = ISO8601DateFormatter()
        let waiting = try await store.consoleGrants(app: app, state: .pending, limit: 200)
        let limit = grantLimits.of(signedIn.person).perGrant
        var values: [String: Any] = [
            "requests": waiting.map {
                [
                    "id": $0.id, "user": $0.userID, "userLink": Self.userPath($0.userID), "currency": $0.currency,
                    "amount": $0.amount, "reason": $0.reason, "requestedBy": $0.requestedBy,
                    "requested": dates.string(from: $0.requestedAt),
                    "decidable": $0.requestedBy != signedIn.session.operatorName
                        && (signedIn.may(.admin) || $0.amount <= limit),
                ] as [String: Any]
            },
            "hasRequests": !waiting.isEmpty,
        ]
        if let notice { values["notice"] = notice }
        if let error { values["error"] = error }
        return page("approvals", status: status, values).response(
            language: language(request), signedIn: signedIn, path: "/console/approvals")
    }

    /// Approves or declines a waiting request. The decider is a second operator: not the requester, and an admin or
    /// a support operator whose own per-grant limit covers the amount. An approval credits the deposit with the
    /// cause `support by <requester>, approved by <decider>`, so the wallet's audit record names both.
    func decide(_ id: String, request: Request, context: PurserRequestContext, _ signedIn: SignedIn) async throws
        -> Response
    {
        let form = try await Self.form(request, context: context)
        let text = ConsoleText.table(language(request))
        let decider = signedIn.session.operatorName
        guard signedIn.accepts(form["csrf"]) else {
            return try await approvals(
                request, signedIn: signedIn, notice: nil, error: text["formExpired"], status: .forbidden)
        }
        let approve = form["decision"] == "approve"
        // An approval whose credit failed (the ledger was briefly out) is approved again by the same operator: the
        // credit is idempotent by its id, so this finishes it and never credits twice.
        guard let grant = try await store.consoleGrant(id), grant.app == app,
            grant.state == .pending || (approve && grant.state == .approved && grant.decidedBy == decider)
        else {
            return try await approvals(
                request, signedIn: signedIn, notice: nil, error: text["grantDecided"], status: .conflict)
        }
        guard grant.requestedBy != decider else {
            return try await approvals(
                request, signedIn: signedIn, notice: nil, error: text["grantSecondOperator"], status: .forbidden)
        }
        guard !approve || signedIn.may(.admin) || grant.amount <= grantLimits.of(signedIn.person).perGrant
        else {
            return try await approvals(
                request, signedIn: signedIn, notice: nil, error: text["grantAboveYourLimit"], status: .forbidden)
        }
        // The decision first, atomically: of two operators deciding at once (an approval and a decline, on two
        // replicas) exactly one wins, and only a won approval credits.
        let decided =
            grant.state == .pending
            ? try await store.decideConsoleGrant(id, state: approve ? .approved : .declined, by: decider, now: now())
            : grant
        guard let decided else {
            return try await approvals(
                request, signedIn: signedIn, notice: nil, error: text["grantDecided"], status: .conflict)
        }
        if approve {
            do {
                try await credit(decided, cause: "support by \(decided.requestedBy), approved by \(decider)")
            } catch let error as ServiceError {
                return try await approvals(
                    request, signedIn: signedIn, notice: nil, error: error.message, status: error.code.status)
            }
        }
        return try await approvals(
            request, signedIn: signedIn, notice: approve ? text["grantApproved"] : text["grantDeclined"])
    }
}
