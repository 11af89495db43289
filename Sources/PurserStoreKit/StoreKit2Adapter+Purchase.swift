#if PURSER_STOREKIT_SHIM || canImport(StoreKit)
    import Foundation
    #if PURSER_STOREKIT_SHIM
        import StoreKitShim
    #else
        import StoreKit
    #endif
    #if canImport(UIKit) && !os(watchOS) && !PURSER_STOREKIT_SHIM
        import UIKit
    #endif

    // Starting the payment sheet: Apple's `purchase` calls run on the main actor; where UIKit has scenes (iOS, iPadOS,
    // tvOS, Mac Catalyst, visionOS) the sheet is anchored to the foreground scene, as Apple recommends for UIKit and
    // requires on visionOS, which has no `purchase(options:)`.
    extension StoreKit2Adapter {
        #if canImport(UIKit) && !os(watchOS) && !PURSER_STOREKIT_SHIM
            /// The purchase's result, or nil on visionOS when no scene is in the foreground to show the sheet in.
            static func purchase(_ product: StoreKitProduct, options: Set<StoreKitProduct.PurchaseOption>)
                async throws -> StoreKitProduct.PurchaseResult?
            {
                if let result = try await purchaseInForegroundScene(product, options: options) { return result }
                #if os(visionOS)
                    return nil
                #else
                    return try await product.purchase(options: options)
                #endif
            }

            /// The purchase with its sheet in the scene the user is looking at (the first foreground-active one), or
            /// nil when there is none. On the main actor throughout: UIKit's scenes live there.
            @MainActor
            private static func purchaseInForegroundScene(
                _ product: StoreKitProduct, options: Set<StoreKitProduct.PurchaseOption>
            ) async throws -> StoreKitProduct.PurchaseResult? {
                let scenes = UIApplication.shared.connectedScenes
                guard let scene = scenes.first(where: { $0.activationState == .foregroundActive }) else { return nil }
                return try await product.purchase(confirmIn: scene, options: options)
            }
        #else
            /// The purchase's result (never nil here: macOS and watchOS have no scenes to anchor it to).
            static func purchase(_ product: StoreKitProduct, options: Set<StoreKitProduct.PurchaseOption>)
                async throws -> StoreKitProduct.PurchaseResult?
            {
                try await product.purchase(options: options)
            }
        #endif
    }
#endif
