import Foundation
import Hummingbird
import PurserCore
import PurserStorage

extension ConsoleRoutes {
    /// One box for whatever the customer or the game gave support:
    /// - digits: a transaction id the ledger knows (its timeline), else an `appTransactionId` (that Apple account's
    ///   purchases), else a transaction id to ask Apple about (its timeline);
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
        } else if query.allSatisfy(\.isNumber), !query.isEmpty {
            let ofAccount = try await store.transactions(appTransactionID: query)
            if try await store.transaction(query) != nil || ofAccount.isEmpty {
                return ConsolePage.redirect(to: "/console/transactions/\(query)")
            }
            values["searched"] = true
            results += ofAccount.map { row($0, source: text["foundByAppTransaction"]) }
        } else if let order = UUID(uuidString: query) {
            values["searched"] = true
            if let found = try await store.order(OrderID(order)) {
                if let transactionID = found.transactionID {
                    return ConsolePage.redirect(to: "/console/transactions/\(transactionID)")
                }
                // An order with no transaction yet (never paid, cancelled, or paid without Apple's token): shown, so
                // "nothing found" never hides it.
                values["order"] = [
                    "id": found.id.description, "userId": found.userID.rawValue, "productId": found.productID,
                    "quantity": found.quantity, "state": found.state.rawValue,
                    "created": ISO8601DateFormatter().string(from: found.createdAt),
                ]
                values["hasResults"] = true
            }
        } else if !query.isEmpty {
            values["searched"] = true
            do {
                results += try await support.lookUp(appleOrderID: query).map {
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
                values["error"] = error.message
            }
            let purchases = try await store.purchases(of: UserID(query), limit: 1)
            if !purchases.orders.isEmpty || !purchases.transactionIDs.isEmpty {
                values["userLink"] = Self.userPath(query)
            }
            for id in try await store.transactionIDs(ownedBy: UserID(query), limit: 100) {
                if let record = try await store.transaction(id) {
                    results.append(row(record, source: text["foundByUser"]))
                }
            }
        }
        values["results"] = results
        values["hasResults"] = !results.isEmpty || values["order"] != nil || values["userLink"] != nil
        return page("search", values).response(language: language, signedIn: signedIn, path: "/console/search")
    }

    private func row(_ record: LedgerTransaction, source: String?) -> [String: Any] {
        [
            "transactionId": record.transaction.transactionID, "productId": record.transaction.productID,
            "ledger": record.state.rawValue, "source": source ?? "",
        ]
    }
}
