// What to tell the user for each event: your own words for deliveries, Purser's for the rest.

import Purser

/// The sentence for `event`. Purser's `message()` answers in the first of the user's preferred languages it speaks
/// (English, Simplified and Traditional Chinese, Japanese, Korean); pass a `PurserLanguage` to choose.
func message(for event: PurchaseEvent) -> String {
    switch event {
    case .delivered: "Thank you! Your gold has arrived."
    case .redelivered: "A purchase from earlier has arrived."
    case .deliveredToOtherAccount:
        "This purchase went to the account that bought it. Sign in with that account to use it."
    case .pending(let pending): pending.reason.message()
    case .failed(let failure): failure.reason.message()
    }
}

/// What a purchase's event asks of the app. Each reason also has a stable `code` for your logs.
func handle(_ event: PurchaseEvent, refreshWallet: () async -> Void, show: (String) -> Void) async {
    show(message(for: event))
    switch event {
    case .delivered, .redelivered, .deliveredToOtherAccount:
        await refreshWallet()  // the server credited it: never add the goods yourself
    case .pending(let pending):
        print("pending:", pending.reason.code)  // Purser retries by itself: never ask the user to pay again
    case .failed(let failure):
        print("failed:", failure.reason.code)  // nothing was or will be delivered
    }
}

/// `buy` throws before any charge, except `.terminated` (the app stopped, maybe after the charge).
func buyGold(with coordinator: PurchaseCoordinator, show: (String) -> Void) async {
    do throws(PurchaseError) {
        _ = try await coordinator.buy("com.example.purser.gold60")  // its event also arrives on `events`
    } catch {
        show(error.message())  // says whether the user may have been charged; `error.code` for the logs
    }
}
// snippet.hide

print(message(for: .failed(PurchaseFailure(productID: "gold", reason: .cancelled))))
