import Foundation
import Hummingbird
import PurserCore
import PurserStorage

extension ConsoleRoutes {
    /// A purchase's timeline: what Apple says, what the ledger says, the owner, the audit trail, and why it waits.
    func transaction(
        _ id: String, request: Request, signedIn: SignedIn, notice: String? = nil, error: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let language = language(request)
        let text = ConsoleText.table(language)
        let path = "/console/transactions/\(id)"
        let view: SupportService.TransactionView
        do {
            view = try await support.view(transactionID: id)
        } catch let failure as ServiceError where failure.code == .notFound || failure.code == .invalidTransactionID {
            return page("search", status: .notFound, ["query": id, "searched": true, "hasResults": false])
                .response(language: language, signedIn: signedIn, path: path)
        }
        let why: String? =
            switch view.ledger {
            case "credited": text["whyCredited"]
            case "unbound": text["whyUnbound"]
            case "rejected":
                view.rejection.map { "\(text["whyRejectedBecause"] ?? "") \($0.message) (\($0.code))" }
                    ?? text["whyRejected"]
            case "revoked": text["whyRevoked"]
            default: text["whyUnknown"]
            }
        let dates = ISO8601DateFormatter()
        // Apple unanswered, or knowing no such transaction of this app: the ledger's record is what the page shows.
        let appleMissing = text[view.apple == "not found" ? "appleNotFound" : "appleUnanswered"] ?? view.apple
        var values: [String: Any] = [
            "view": [
                "transactionId": view.transactionId, "productId": view.productId, "environment": view.environment,
                "apple": view.appleError.map { "\(appleMissing) (\($0))" } ?? view.apple,
                "ledger": view.ledger,
            ],
            "why": why ?? "", "purchased": dates.string(from: view.purchaseDate),
            "owner": view.ownerId?.rawValue ?? (text["nobody"] ?? ""), "order": view.orderId?.description ?? "—",
            "token": try await tokenLine(view.appAccountToken, text: text),
            "price": Self.priceLine(view, text: text),
            "grants": view.grants.map { $0.sorted.map { "\($0.0) \($0.1)" }.joined(separator: ", ") } ?? "—",
            "audit": view.audit.map {
                ["at": dates.string(from: $0.at), "event": $0.event, "cause": $0.cause, "detail": $0.detail]
            },
            // A grant asks Apple again: not for what Apple refunded or does not know in this app.
            "grantable": view.ledger != "credited" && view.ledger != "revoked"
                && !["refunded", "not found"].contains(view.apple),
        ]
        if let owner = view.ownerId { values["ownerLink"] = Self.userPath(owner.rawValue) }
        if let trace = view.traceId { values["trace"] = trace }
        if let code = view.rejection?.code, RejectionReason.overridable.contains(code) { values["overridable"] = code }
        let deliveries = try await store.webhookDeliveries(forTransaction: view.transactionId)
        values["deliveries"] = deliveries.map {
            [
                "id": $0.id, "endpoint": $0.endpoint, "status": $0.status.rawValue, "attempts": $0.attempts,
                "lastResult": $0.lastResult ?? "—",
            ] as [String: Any]
        }
        values["hasDeliveries"] = !deliveries.isEmpty
        // Only what is there: Mustache shows a section for any value, an empty string included.
        if let notice = notice.flatMap({ text[$0] }) { values["notice"] = notice }
        if let error { values["error"] = error }
        return page("transaction", status: status, values).response(
            language: language, signedIn: signedIn, path: path)
    }

    /// Make good: an audited grant of a verified transaction to a user, with the operator and a required reason.
    /// The ledger's rule decides: it never credits a transaction twice, whatever the page sends.
    func grant(_ id: String, request: Request, context: PurserRequestContext, _ signedIn: SignedIn) async throws
        -> Response
    {
        let form = try await Self.form(request, context: context)
        let text = ConsoleText.table(language(request))
        guard signedIn.accepts(form["csrf"]) else {
            return try await transaction(
                id, request: request, signedIn: signedIn, error: text["formExpired"], status: .forbidden)
        }
        let user = (form["user"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let reason = (form["reason"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !user.isEmpty, !reason.isEmpty else {
            return try await transaction(
                id, request: request, signedIn: signedIn, error: text["missing"], status: .badRequest)
        }
        guard user.count <= 200, reason.count <= 500 else {
            return try await transaction(
                id, request: request, signedIn: signedIn, error: text["tooLong"], status: .badRequest)
        }
        // The unbound queue's "Bind to" names the candidate order, which the transaction then completes.
        let order = form["order"].flatMap { $0.isEmpty ? nil : OrderID($0) }
        let override = form["override"].flatMap { $0.isEmpty ? nil : $0 }
        do {
            _ = try await support.grant(
                transactionID: id, to: UserID(user), reason: reason, operator: signedIn.session.operatorName,
                order: order, override: override)
        } catch let error as ServiceError {
            return try await transaction(
                id, request: request, signedIn: signedIn, error: error.message, status: error.code.status)
        }
        return ConsolePage.redirect(to: "/console/transactions/\(id)?granted=1")
    }
}
