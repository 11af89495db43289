#if PURSER_STOREKIT_SHIM || canImport(StoreKit)
    import Foundation
    import Purser
    #if PURSER_STOREKIT_SHIM
        import StoreKitShim
    #else
        import StoreKit
    #endif
    #if canImport(UIKit) && !os(watchOS) && !PURSER_STOREKIT_SHIM
        import UIKit
    #elseif canImport(AppKit) && !targetEnvironment(macCatalyst) && !PURSER_STOREKIT_SHIM
        import AppKit
    #endif

    // Starting the payment sheet: Apple's `purchase` calls run on the main actor. Where UIKit has scenes (iOS, iPadOS,
    // tvOS, Mac Catalyst, visionOS) the sheet is anchored to the scene the app names, else to the foreground scene, as
    // Apple recommends for UIKit and requires on visionOS, which has no `purchase(options:)`. On macOS 15.2 and later
    // it is anchored to the window the app names.
    extension StoreKit2Adapter {
        #if canImport(UIKit) && !os(watchOS) && !PURSER_STOREKIT_SHIM
            /// The purchase's result, or nil on visionOS when no scene was named and none is in the foreground to
            /// show the sheet in.
            static func purchase(
                _ product: StoreKitProduct, options: Set<StoreKitProduct.PurchaseOption>, anchor: PurchaseAnchor?
            ) async throws -> StoreKitProduct.PurchaseResult? {
                if let anchor { return try await purchase(product, options: options, in: anchor.scene) }
                if let result = try await purchaseInForegroundScene(product, options: options) { return result }
                #if os(visionOS)
                    return nil
                #else
                    return try await product.purchase(options: options)
                #endif
            }

            /// The purchase with its sheet in `scene`.
            @MainActor
            private static func purchase(
                _ product: StoreKitProduct, options: Set<StoreKitProduct.PurchaseOption>, in scene: UIScene
            ) async throws -> StoreKitProduct.PurchaseResult {
                try await product.purchase(confirmIn: scene, options: options)
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
        #elseif canImport(AppKit) && !targetEnvironment(macCatalyst) && !PURSER_STOREKIT_SHIM
            /// The purchase's result (never nil): on the named window where StoreKit can anchor to one (macOS 15.2),
            /// else wherever StoreKit puts it.
            static func purchase(
                _ product: StoreKitProduct, options: Set<StoreKitProduct.PurchaseOption>, anchor: PurchaseAnchor?
            ) async throws -> StoreKitProduct.PurchaseResult? {
                if let anchor, #available(macOS 15.2, *) {
                    return try await purchase(product, options: options, in: anchor.window)
                }
                return try await product.purchase(options: options)
            }

            /// The purchase with its sheet on `window`.
            @available(macOS 15.2, *)
            @MainActor
            private static func purchase(
                _ product: StoreKitProduct, options: Set<StoreKitProduct.PurchaseOption>, in window: NSWindow
            ) async throws -> StoreKitProduct.PurchaseResult {
                try await product.purchase(confirmIn: window, options: options)
            }
        #else
            /// The purchase's result (never nil here: watchOS has no scenes to anchor it to, and the shim none to
            /// show).
            static func purchase(
                _ product: StoreKitProduct, options: Set<StoreKitProduct.PurchaseOption>, anchor: PurchaseAnchor?
            ) async throws -> StoreKitProduct.PurchaseResult? {
                try await product.purchase(options: options)
            }
        #endif
    }
#endif
