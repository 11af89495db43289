import Foundation
import Hummingbird
import PurserCore
import PurserStorage

extension ConsoleRoutes {
    /// One box for whatever the customer or the game gave support, looked up in every app the operator may see
    /// (this app first; in a studio each hit of another app names it and links to it there, through the switcher):
    /// - digits: a transaction id the ledger knows (its timeline), else an `appTransactionId` (that Apple account's
    ///   purchases), else a transaction id to ask Apple about (its timeline in this app);
    /// - a UUID: a Purser order (its transaction's timeline, or the order itself while it has no transaction);
    /// - anything else: Apple's order id from the customer's e-mail receipt (Look Up Order ID) and a user id (the
    ///   transactions credited to that account), both listed.
    func search(_ request: Request, signedIn: SignedIn) async throws -> Response {
        let query = (request.uri.queryParameters.get("q") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let language = language(request)
        let text = ConsoleText.table(language)
        var values: [String: Any] = ["query": query]
        var results: [[String: Any]] = []
        if query.count > 200 {
            values["error"] = text["tooLong"]
        } else if !query.isEmpty {
            values["searched"] = true
            let visible =
                studio.apps.filter { $0.bundleId == app }
                + studio.apps.filter { $0.bundleId != app && signedIn.apps.contains($0.bundleId) }
            var found: [(app: String, hits: Hits)] = []
            for entry in visible { found.append((entry.bundleId, try await hits(of: query, in: entry, text: text))) }
            let here = found[0].hits
            let elsewhere = found.dropFirst().filter { !$0.hits.isEmpty }
            let transactionPath = "/console/transactions/\(query)"
            if query.allSatisfy(\.isNumber),
                (here.transaction && elsewhere.isEmpty) || (here.isEmpty && elsewhere.isEmpty)
            {
                return ConsolePage.redirect(to: transactionPath)
            }
            if let transactionID = here.orderTransaction {
                return ConsolePage.redirect(to: "/console/transactions/\(transactionID)")
            }
            for (app, hits) in found {
                let there = app == self.app
                func link(_ path: String) -> String { there ? path : ConsoleStudio.switchPath(app, back: path) }
                for var row in hits.rows {
                    row["link"] = link("/console/transactions/\(row["transactionId"] as? String ?? "")")
                    if !there { row["app"] = app }
                    results.append(row)
                }
                if var order = hits.order, values["order"] == nil {
                    if !there { order["app"] = app }
                    values["order"] = order
                }
                if hits.user {
                    if there {
                        values["userLink"] = Self.userPath(query)
                    } else {
                        let others = values["otherUsers"] as? [[String: Any]] ?? []
                        values["otherUsers"] = others + [["app": app, "link": link(Self.userPath(query))]]
                    }
                }
                if let error = hits.error { values["error"] = error }
            }
        }
        values["results"] = results
        values["hasResults"] =
            !results.isEmpty || values["order"] != nil || values["userLink"] != nil || values["otherUsers"] != nil
        return page("search", values).response(language: language, signedIn: signedIn, path: "/console/search")
    }

    /// What one app's ledger (and Apple, for its bundle) knows of a query.
    struct Hits {
        var rows: [[String: Any]] = []
        /// The query is a transaction id this ledger knows.
        var transaction = false
        /// The query is an order of this ledger with a transaction: that transaction's id.
        var orderTransaction: String?
        /// The query is an order of this ledger without a transaction yet.
        var order: [String: Any]?
        /// The query is a user id with purchases or orders here.
        var user = false
        var error: String?

        var isEmpty: Bool { rows.isEmpty && !transaction && orderTransaction == nil && order == nil && !user }
    }

    /// Looks `query` up in one app.
    func hits(of query: String, in entry: ConsoleStudio.App, text: [String: String]) async throws -> Hits {
        let store = entry.store
        var hits = Hits()
        if query.allSatisfy(\.isNumber) {
            if let record = try await store.transaction(query) {
                hits.transaction = true
                // Listed only when another app has hits too (else the timeline opens at once).
                hits.rows.append(row(record, source: text["foundById"]))
            }
            hits.rows += try await store.transactions(appTransactionID: query).map {
                row($0, source: text["foundByAppTransaction"])
            }
        } else if let order = UUID(uuidString: query) {
            if let found = try await store.order(OrderID(order)) {
                if let transactionID = found.transactionID {
                    hits.orderTransaction = transactionID
                    if let record = try await store.transaction(transactionID) {
                        hits.rows.append(row(record, source: text["order"]))
                    }
                } else {
                    // An order with no transaction yet (never paid, cancelled, or paid without Apple's token):
                    // shown, so "nothing found" never hides it.
                    hits.order = [
                        "id": found.id.description, "userId": found.userID.rawValue, "productId": found.productID,
                        "quantity": found.quantity, "state": found.state.rawValue,
                        "created": ISO8601DateFormatter().string(from: found.createdAt),
                    ]
                }
            }
        } else {
            do {
                hits.rows += try await entry.support.lookUp(appleOrderID: query).map {
                    [
                        "transactionId": $0.transactionId, "productId": $0.productId, "ledger": $0.ledger,
                        "source": text["foundByAppleOrder"] ?? "",
                    ]
                }
            } catch let error as ServiceError where error.code == .notFound || error.code == .invalidOrderID {
                // Not an Apple order id: it may still be a user id.
            } catch let error as ServiceError where error.code == .appStoreAPINotConfigured {
                // Without the App Store Server API, only user ids can be searched.
            } catch let error as ServiceError {
                hits.error = error.message
            }
            let purchases = try await store.purchases(of: UserID(query), limit: 1)
            hits.user = !purchases.orders.isEmpty || !purchases.transactionIDs.isEmpty
            for id in try await store.transactionIDs(ownedBy: UserID(query), limit: 100) {
                if let record = try await store.transaction(id) {
                    hits.rows.append(row(record, source: text["foundByUser"]))
                }
            }
        }
        return hits
    }

    private func row(_ record: LedgerTransaction, source: String?) -> [String: Any] {
        [
            "transactionId": record.transaction.transactionID, "productId": record.transaction.productID,
            "ledger": record.state.rawValue, "source": source ?? "",
        ]
    }
}
