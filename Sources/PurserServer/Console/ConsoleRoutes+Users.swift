import Foundation
import HTTPTypes
import Hummingbird
import PurserCore
import PurserStorage

extension ConsoleRoutes {
    /// A user's page, for "I paid and got nothing": balances, entitlements, every order (waiting ones too) and every
    /// purchase that is theirs or names one of their orders, the refused and unbound ones included, each with why.
    func user(
        _ request: Request, signedIn: SignedIn, id given: String? = nil, error: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let id = (given ?? request.uri.queryParameters.get("id") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let language = language(request)
        let text = ConsoleText.table(language)
        let path = Self.userPath(id)
        guard !id.isEmpty, id.count <= 200 else {
            return page("search", status: .badRequest, ["error": text["tooLong"] ?? "", "query": id])
                .response(language: language, signedIn: signedIn, path: path)
        }
        let user = UserID(id)
        let dates = ISO8601DateFormatter()
        let wallet = try await orders.wallet(of: user)
        let purchases = try await store.purchases(of: user, limit: 100)
        var rows: [[String: Any]] = []
        for transactionID in purchases.transactionIDs {
            guard let record = try await store.transaction(transactionID) else { continue }
            let owned = record.ownerID == user
            rows.append([
                "transactionId": transactionID, "productId": record.transaction.productID,
                "ledger": record.state.rawValue, "recorded": dates.string(from: record.recordedAt),
                "why": record.rejection.map { "\($0.message) (\($0.code))" }
                    ?? (owned
                        ? "" : record.ownerID.map { "\(text["creditedTo"] ?? "") \($0)" } ?? text["whyUnbound"] ?? "")
                    ,
            ])
        }
        let history = try await store.walletHistory(of: user, after: nil, limit: 50).entries.map {
            [
                "at": dates.string(from: $0.at), "kind": $0.kind, "reference": $0.reference,
                "isTransaction": ["credit", "revoke", "restore"].contains($0.kind),
                "amounts": $0.amounts.sorted { $0.key < $1.key }.map {
                    "\($0.key) \($0.value > 0 ? "+" : "")\($0.value)"
                }
                .joined(separator: ", "),
                "cause": [$0.cause, $0.reason].compactMap { $0 }.joined(separator: ": "),
            ] as [String: Any]
        }
        var values: [String: Any] = [
            "history": history, "hasHistory": !history.isEmpty,
            "user": id,
            "balances": wallet.balances.sorted { $0.key < $1.key }.map { ["currency": $0.key, "amount": $0.value] },
            "hasBalances": !wallet.balances.isEmpty,
            "entitlements": wallet.entitlements.joined(separator: ", "),
            "hasEntitlements": !wallet.entitlements.isEmpty,
            "orders": purchases.orders.map {
                [
                    "id": $0.id.description, "productId": $0.productID, "quantity": $0.quantity,
                    "state": $0.state.rawValue,
                    "created": dates.string(from: $0.createdAt), "transactionId": $0.transactionID ?? "",
                ] as [String: Any]
            },
            "hasOrders": !purchases.orders.isEmpty, "purchases": rows, "hasPurchases": !rows.isEmpty,
        ]
        let held = try await store.heldAmounts(of: user, now: now())
        if !held.isEmpty {
            values["held"] = held.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
        if goodwillLimit > 0 { values["goodwill"] = ["limit": goodwillLimit, "key": UUID().uuidString] }
        if request.uri.queryParameters.get("credited") != nil, let notice = text["goodwillCredited"] {
            values["notice"] = notice
        }
        if request.uri.queryParameters.get("requested") != nil, let notice = text["grantWaits"] {
            values["notice"] = notice
        }
        if let error { values["error"] = error }
        return page("user", status: status, values).response(language: language, signedIn: signedIn, path: path)
    }

    /// A goodwill credit from a user's page, for what no transaction can make good: a deposit of one currency, at
    /// most `goodwillLimit`, with the operator's reason, audited as `support by <operator>` and sent as a
    /// `wallet.changed` event; above a support operator's `GrantLimits` it waits for a second operator instead
    /// (`give`). The form's key makes a second click replay the first credit, not add another.
    func goodwill(_ request: Request, context: PurserRequestContext, _ signedIn: SignedIn) async throws -> Response {
        let form = try await Self.form(request, context: context)
        let text = ConsoleText.table(language(request))
        let id = (form["id"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard signedIn.accepts(form["csrf"]) else {
            return try await user(request, signedIn: signedIn, id: id, error: text["formExpired"], status: .forbidden)
        }
        let currency = (form["currency"] ?? "").trimmingCharacters(in: .whitespaces)
        let reason = (form["reason"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard goodwillLimit > 0, let amount = Int64(form["amount"] ?? ""), (1...goodwillLimit).contains(amount),
            let key = form["key"].flatMap(UUID.init(uuidString:)), !currency.isEmpty, !reason.isEmpty
        else {
            let error = "\(text["goodwillInvalid"] ?? "") \(goodwillLimit)"
            return try await user(request, signedIn: signedIn, id: id, error: error, status: .badRequest)
        }
        let asked = ConsoleGrant(
            id: key.uuidString, app: app, userID: id, currency: currency, amount: amount, reason: reason,
            requestedBy: signedIn.session.operatorName, requestedAt: now(), state: .granted)
        do {
            return try await give(asked, request: request, signedIn)
        } catch let error as ServiceError {
            return try await user(request, signedIn: signedIn, id: id, error: error.message, status: error.code.status)
        }
    }

    /// The user page's address: the id in the query, percent-encoded but for unreserved characters.
    static func userPath(_ id: String) -> String {
        var unreserved = CharacterSet.alphanumerics
        unreserved.insert(charactersIn: "-._~")
        return "/console/users?id=" + (id.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")
    }

    /// The `appAccountToken` Apple signed and the order it names: its id, owner and state, or that it names none.
    func tokenLine(_ token: OrderID?, text: [String: String]) async throws -> String {
        guard let token else { return text["noToken"] ?? "—" }
        guard let order = try await store.order(token) else {
            return "\(token) · \(text["namesNoOrder"] ?? "")"
        }
        return "\(token) · \(text["namesOrderOf"] ?? "") \(order.userID) (\(order.productID), \(order.state.rawValue))"
    }

    /// The price Apple signed, as "0.99 USD", or why it is not shown.
    static func priceLine(_ view: SupportService.TransactionView, text: [String: String]) -> String {
        guard let price = view.price, let currency = view.currency else { return text["priceUnknown"] ?? "—" }
        let whole = Decimal(price) / 1000
        return "\(whole) \(currency)"
    }
}
