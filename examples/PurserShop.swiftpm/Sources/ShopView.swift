import Purser
import SwiftUI

/// The product list with a Buy button each, the latest notice and what happened so far.
struct ShopView: View {
    @Environment(Shop.self) private var shop
    @State private var buying: String?

    var body: some View {
        NavigationStack {
            List {
                Section("Products") {
                    ForEach(shop.products) { product in
                        HStack {
                            Text(product.displayName)
                            Spacer()
                            Button(product.displayPrice) {
                                buying = product.id
                                Task {
                                    await shop.buy(product)
                                    buying = nil
                                }
                            }
                            .buttonStyle(.borderedProminent)
                            .disabled(buying != nil)
                        }
                    }
                }
                if let notice = shop.notice {
                    Section("Latest") { Text(notice) }
                }
                Section("History") {
                    ForEach(Array(shop.history.enumerated()), id: \.offset) { _, line in Text(line).font(.footnote) }
                }
            }
            .navigationTitle("Purser Shop")
        }
    }
}
