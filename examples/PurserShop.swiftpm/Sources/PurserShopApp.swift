import SwiftUI

/// A shop that sells gold through Purser: the coordinator runs every purchase, and recovers by itself when the
/// network or the app comes back.
@main
struct PurserShopApp: App {
    @State private var shop = Shop()

    var body: some Scene {
        WindowGroup {
            ShopView()
                .environment(shop)
                .task { await shop.start() }
        }
    }
}
