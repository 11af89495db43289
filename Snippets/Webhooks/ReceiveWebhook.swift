// Verifies one Purser webhook and applies its event once per `webhook-id`, in any HTTP framework: hand it the
// raw body and the headers, answer the status it returns.

import Foundation
import PurserWebhooks

// snippet.hide
/// Stands for the game's own store: it applies each webhook id once.
actor GameWallet {
    private var applied: Set<String> = []
    private var balances: [String: [String: Int64]] = [:]

    func applyOnce(id: String, user: String, amounts: [String: Int64]) {
        guard applied.insert(id).inserted else { return }
        for (currency, amount) in amounts { balances[user, default: [:]][currency, default: 0] += amount }
    }
}
let wallet = GameWallet()
let secretFromYourVault = WebhookSecret.generate().serialized
// snippet.show

let verifier = try WebhookVerifier(secret: secretFromYourVault)  // "whsec_…"; five minutes of tolerance

/// The route's body: 204 once the event is applied (or was before), 401 for anything not signed by Purser.
func receive(body: Data, headers: [String: String]) async -> Int {
    guard let webhook = try? verifier.verify(body: body, headers: headers) else { return 401 }
    // transaction.credited, .revoked and .restored carry the grants to add (a refund's are negative);
    // wallet.changed (event.walletChange), user.erased (event.erasure) and webhook.test need nothing here.
    guard let transaction = webhook.event.transaction else { return 204 }
    await wallet.applyOnce(id: webhook.id, user: transaction.userId, amounts: transaction.grants)
    return 204  // 2xx only once applied (or already applied): anything else is sent again
}
// snippet.hide

// The same request twice, as a retry would send it: applied once.
let event = WebhookEvent(type: .test, timestamp: Date(), message: "hello")
let body = try event.body()
let signed = WebhookSignature.headers(
    id: "evt_1", body: body, secrets: [try WebhookSecret(secretFromYourVault)], now: Date())
let headers = Dictionary(uniqueKeysWithValues: signed.map { ($0.name, $0.value) })
print(await receive(body: body, headers: headers), await receive(body: body, headers: [:]))
