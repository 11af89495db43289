// The app's one coordinator, started at launch and told who is signed in. It recovers by itself from then on.

import Foundation
import Purser

// snippet.hide
// swift-format-ignore
#if canImport(StoreKit)
// snippet.show
import PurserStoreKit

/// The app's one coordinator, built at launch and kept for the app's lifetime: the API client, the purchase journal
/// (in the Keychain, so a purchase made before a reinstall still finds its order) and the spend journal, with the
/// defaults an app wants. `init(api:journal:store:spends:configuration:)` assembles them by hand.
func makePurchaseCoordinator() -> PurchaseCoordinator {
    do {
        // StoreKit1Adapter() instead (from PurserStoreKit1) if your app's purchases go through SKPaymentQueue.
        return try PurchaseCoordinator(server: URL(string: "https://purser.example.com")!, store: StoreKit2Adapter())
    } catch {
        // A JournalStoreError: a journal exists but cannot be read. Don't sell without one. The Keychain item is
        // readable after the first unlock since boot: an app that can launch in the background before that
        // should build the coordinator once protected data is available, not crash here.
        fatalError("Purser cannot read its journal: \(error)")
    }
}
// snippet.hide
#endif
// snippet.show

/// Stands for the app's own sign-in.
protocol AppAuthentication: Sendable {
    var signedInUserID: String? { get async }
    func token() async throws -> String
}

/// At launch, before the user can buy: registers the StoreKit observer and the recovery signals, then settles what
/// an earlier run left unfinished for the user the app restored.
func launched(_ purchases: some PurchaseCoordinating, auth: some AppAuthentication) async {
    let session = await auth.signedInUserID.map { userID in
        // `.bearer` is asked before every request, so it can refresh the token; `.development` sends
        // X-Purser-User to a server running development authentication.
        PurserSession(userID: userID, authorization: .bearer { try await auth.token() })
    }
    await purchases.start(session: session)
}

/// After the app's own sign-in succeeds: the user's unfinished purchases are settled now.
func signedIn(_ purchases: some PurchaseCoordinating, as userID: String, auth: some AppAuthentication) async {
    await purchases.login(PurserSession(userID: userID, authorization: .bearer { try await auth.token() }))
}

/// Sign-out: unfinished purchases wait, unfinished, for the next login.
func signedOut(_ purchases: some PurchaseCoordinating) async {
    await purchases.logout()
}

/// One listener for the app's whole life, in a task owned by a long-lived object: each access to `events` is a
/// stream of its own, and recovery's outcomes arrive only there.
func listen(to purchases: some PurchaseCoordinating, handle: @escaping @Sendable (PurchaseEvent) async -> Void)
    -> Task<Void, Never>
{
    let events = purchases.events
    return Task {
        for await event in events { await handle(event) }
    }
}
