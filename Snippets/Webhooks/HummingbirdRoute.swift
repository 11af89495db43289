// The same receiver as a Hummingbird route: the body collected as received, the headers read by name.

import HTTPTypes
import Hummingbird
import PurserWebhooks

// snippet.hide
/// Stands for the game's own store: it applies each webhook id once.
actor GameWallet {
    private var applied: Set<String> = []

    func applyOnce(id: String, user: String, grants: [String: Int64]) {
        guard applied.insert(id).inserted else { return }
    }
}
let wallet = GameWallet()
let secretFromYourVault = WebhookSecret.generate().serialized
let router = Router()
// snippet.show

let verifier = try WebhookVerifier(secret: secretFromYourVault)  // "whsec_…"; five minutes of tolerance
router.post("purser") { request, _ -> HTTPResponse.Status in
    let body = try await request.body.collect(upTo: 1 << 20)
    guard
        let webhook = try? verifier.verify(
            body: body.readableBytesView, header: { HTTPField.Name($0).flatMap { request.headers[$0] } })
    else { return .unauthorized }
    guard let transaction = webhook.event.transaction else { return .noContent }  // webhook.test and the others
    await wallet.applyOnce(id: webhook.id, user: transaction.userId, grants: transaction.grants)
    return .noContent  // 2xx only once applied (or already applied): anything else is sent again
}
